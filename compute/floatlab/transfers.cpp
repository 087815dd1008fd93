// Host <-> device bandwidth beside the seeds' transfer figures (compute/floatlab/transfers.h).
#include "compute/floatlab/transfers.h"

#include "compute/measure/timer.h"

#include <cstdio>
#include <stdexcept>

namespace floatlab {

namespace {

constexpr const char* kSimsurf = "Abecassis 2012, SIMSURF: machined surfaces simulated on GPUs";
constexpr const char* kSimsurfSection = "§2.3.2 Bande passante mémoire (memory bandwidth)";
constexpr const char* kSimsurfTool = "CUDA SDK bandwidthTest (cudaMemcpy)";
constexpr const char* kQuadro = "NVIDIA Quadro 4000 with a Xeon X5650";
constexpr const char* kGtx = "NVIDIA GTX 560 Ti with a Phenom II X4 955";

nlohmann::json transfer_figure(const char* source, const char* section, const char* machine, const char* as_printed,
                               double mo_per_s, const char* how) {
  return {{"source", source},         {"section", section},        {"machine", machine},
          {"as_printed", as_printed}, {"gbps", mo_per_s / 1000.0}, {"how", how}};
}

// What the sources say about a direction without a number.
nlohmann::json transfer_no_figure(TransferDirection direction) {
  nlohmann::json none = nlohmann::json::array();
  if (direction == TransferDirection::D2D) {
    none.push_back({{"source", "Bleton 2005, GPU computing for finite-difference systems"},
                    {"section", "§4.1.3.2, §4.3.2 and §4.3.3"},
                    {"says",
                     "no bandwidth, shares of time: the copy into a texture (copie en texture, "
                     "glCopyTexSubImage2D, a copy inside the GPU) takes 10% of the cloth simulation, 4% to "
                     "15% of the linear combination (axpby) and up to 20% of the dot product"}});
    return none;
  }
  none.push_back({{"source", "Da Graça 2006, Floating-point arithmetic on graphics processors"},
                  {"section", "§2.2.1 (fig. 2.3, lost in the text) and §4.3.1"},
                  {"says",
                   "no number: 4096 additions on the 7800 GTX with the exchange of data cost 100 times "
                   "4096 additions on the CPU, 'mainly the use of the system bus'"}});
  if (direction == TransferDirection::H2D)
    none.push_back({{"source", "Bleton 2005, GPU computing for finite-difference systems"},
                    {"section", "§4.1.1"},
                    {"says",
                     "no number for uploads: a matrix sent at every step would be 'too much for the AGP "
                     "bus' (Accelerated Graphics Port)"}});
  return none;
}

std::string transfer_size_label(VkDeviceSize bytes) {
  char text[32];
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
    std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>(bytes >> 20));
  else
    std::snprintf(text, sizeof text, "%llu KiB", static_cast<unsigned long long>(bytes >> 10));
  return text;
}

const char* transfer_words(TransferDirection direction) {
  switch (direction) {
    case TransferDirection::H2D:
      return "host to device (H2D): host-visible mapped buffer -> device-local buffer";
    case TransferDirection::D2H:
      return "device to host (D2H): device-local buffer -> host-visible mapped buffer";
    case TransferDirection::D2D:
      return "device to device (D2D): device-local buffer -> device-local buffer, read and write counted";
  }
  return "";
}

}  // namespace

const char* transfer_name(TransferDirection direction) {
  switch (direction) {
    case TransferDirection::H2D:
      return "h2d";
    case TransferDirection::D2H:
      return "d2h";
    case TransferDirection::D2D:
      return "d2d";
  }
  return "";
}

Transfer::Transfer(gpu::Context& ctx, TransferDirection direction, VkDeviceSize bytes, uint32_t seed)
    : ctx_(ctx), direction_(direction), bytes_(bytes) {
  if (bytes == 0 || bytes % 4) throw std::invalid_argument("Transfer: bytes must be a positive multiple of 4");
  // Random non-zero words (xorshift32 never reaches 0 from a non-zero state): a copy that moved
  // nothing, or only zeros, or the wrong half, cannot pass.
  words_.resize(bytes / 4);
  uint32_t state = seed ? seed * 2654435761u : 0x9e3779b9u;
  if (!state) state = 0x9e3779b9u;
  for (auto& w : words_) {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    w = state;
  }
  const bool host_src = direction == TransferDirection::H2D, host_dst = direction == TransferDirection::D2H;
  gpu::require_memory(ctx, (host_src ? 0 : bytes) + (host_dst ? 0 : bytes), "the transfer's device-local buffers");
  src_ = gpu::Buffer(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host_src);
  dst_ = gpu::Buffer(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, host_dst);
  src_.upload(words_);  // a memcpy into the mapped buffer (H2D), through a staging copy otherwise
}

void Transfer::record(VkCommandBuffer cmd) const {
  // The previous copy's writes to dst (and any upload's) done before this one writes it again.
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
               VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferCopy region{0, 0, bytes_};
  vkCmdCopyBuffer(cmd, src_.handle(), dst_.handle(), 1, &region);
}

std::vector<uint32_t> Transfer::read_destination() const {
  if (direction_ != TransferDirection::D2H) return dst_.download<uint32_t>();
  std::vector<uint32_t> out(words_.size());
  dst_.download(out.data(), bytes_);  // mapped: a memcpy after the copy's barrier to the host
  return out;
}

Transfer::Check Transfer::compare(const std::vector<uint32_t>& sent, const std::vector<uint32_t>& arrived) {
  Check c;
  c.words = sent.size();
  for (size_t i = 0; i < sent.size(); ++i) {
    const bool here = i < arrived.size();
    if (here && arrived[i] == sent[i]) continue;
    if (!c.wrong) c.first_wrong = i, c.first_sent = sent[i], c.first_arrived = here ? arrived[i] : 0;
    ++c.wrong;
  }
  return c;
}

Transfer::Check Transfer::check(bool copy) {
  std::vector<uint32_t> poison(words_.size());
  for (size_t i = 0; i < poison.size(); ++i) poison[i] = ~words_[i];
  dst_.upload(poison);
  if (copy)
    ctx_.submit_now([&](VkCommandBuffer cmd) {
      record(cmd);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
    });
  return compare(words_, read_destination());
}

nlohmann::json seed_transfer_figures(TransferDirection direction) {
  nlohmann::json figures = nlohmann::json::array();
  switch (direction) {
    case TransferDirection::H2D:
      figures.push_back(
          transfer_figure(kSimsurf, kSimsurfSection, kQuadro, "CPU -> GPU 3241 Mo/s", 3241, kSimsurfTool));
      figures.push_back(transfer_figure(kSimsurf, kSimsurfSection, kGtx, "CPU -> GPU 3132 Mo/s", 3132, kSimsurfTool));
      break;
    case TransferDirection::D2H:
      figures.push_back(
          transfer_figure(kSimsurf, kSimsurfSection, kQuadro, "GPU -> CPU 4009 Mo/s", 4009, kSimsurfTool));
      figures.push_back(transfer_figure(kSimsurf, kSimsurfSection, kGtx, "GPU -> CPU 2588 Mo/s", 2588, kSimsurfTool));
      figures.push_back(transfer_figure(
          "Bleton 2005, GPU computing for finite-difference systems", "§2.5.4 Localité des données (data locality)",
          "'the latest NVIDIA cards' of 2005",
          "readback (rapatriement: bringing results back) from GPU memory to main memory 'limited to 600 Mo/s'", 600,
          "stated in the thesis's literature review (chapter 2), not measured there"));
      break;
    case TransferDirection::D2D:
      figures.push_back(
          transfer_figure(kSimsurf, kSimsurfSection, kQuadro, "GPU -> GPU 72322 Mo/s", 72322, kSimsurfTool));
      figures.push_back(
          transfer_figure(kSimsurf, kSimsurfSection, kGtx, "GPU -> GPU 110787 Mo/s", 110787, kSimsurfTool));
      break;
  }
  return figures;
}

std::vector<VkDeviceSize> transfer_sizes(const gpu::Context& ctx, bool quick) {
  if (quick) return {64u << 10, 1u << 20};
  const VkDeviceSize largest = ctx.info.type == "cpu" ? (64u << 20) : (256u << 20);
  return {1u << 20, 16u << 20, largest};
}

void transfer_rows(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows) {
  const int repeats = options.quick ? 5 : 9;
  for (auto direction : {TransferDirection::H2D, TransferDirection::D2H, TransferDirection::D2D})
    for (VkDeviceSize bytes : transfer_sizes(ctx, options.quick)) {
      Transfer transfer(ctx, direction, bytes, uint32_t(bytes >> 10) + uint32_t(direction) + 1);
      auto t = gpu::time_gpu(
          ctx, [&](VkCommandBuffer cmd) { transfer.record(cmd); }, repeats, options.quick ? 20 : 200);
      auto check = transfer.check();
      if (check.wrong)
        throw std::runtime_error("transfers." + std::string(transfer_name(direction)) + " " +
                                 transfer_size_label(bytes) + ": " + std::to_string(check.wrong) + " of " +
                                 std::to_string(check.words) + " words did not arrive (first: word " +
                                 std::to_string(check.first_wrong) + ")");
      gpu::BenchRow row{.pass = std::string("transfers.") + transfer_name(direction),
                        .size = transfer_size_label(bytes),
                        .elements = bytes / 4,
                        .repeats = t.repeats,
                        .median_ms = t.median_ms,
                        .min_ms = t.min_ms,
                        .bytes = transfer.counted_bytes()};
      const double gbps = row.gbps();
      auto figures = seed_transfer_figures(direction);
      for (auto& f : figures) f["ratio"] = f["gbps"].get<double>() > 0 ? gbps / f["gbps"].get<double>() : 0.0;
      row.reference = {{"direction", transfer_words(direction)},
                       {"bytes_copied", double(bytes)},
                       {"bytes_counted", row.bytes},
                       {"timed", "one vkCmdCopyBuffer, GPU timestamps, median of the repeats"},
                       {"words_checked", check.words},
                       {"seed", figures},
                       {"seed_without_figure", transfer_no_figure(direction)},
                       {"unit",
                        "GB/s = 10^9 bytes/s; the seeds' Mo/s (megaoctets, megabytes, per second) read as "
                        "10^6 bytes/s"}};
      if (direction == TransferDirection::D2D) {
        row.reference["saxpy_gbps"] = options.saxpy_gbps;
        row.reference["relative_to_saxpy"] = options.saxpy_gbps > 0 ? gbps / options.saxpy_gbps : 0.0;
        if (options.saxpy_gbps > 0) row.add_note("%.0f%% saxpy", 100.0 * gbps / options.saxpy_gbps);
        row.add_note("x%.3g SIMSURF's Quadro 4000 (72.3 GB/s)", gbps / 72.322);
      } else if (direction == TransferDirection::H2D) {
        row.add_note("x%.3g SIMSURF's Quadro 4000 (3.24 GB/s)", gbps / 3.241);
      } else {
        row.add_note("x%.3g SIMSURF's Quadro 4000 (4.01 GB/s)", gbps / 4.009);
        row.add_note("x%.3g Bleton's 2005 readback (0.6 GB/s)", gbps / 0.6);
      }
      rows.push_back(row);
    }
}

}  // namespace floatlab
