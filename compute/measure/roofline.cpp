#include "compute/measure/roofline.h"
#include "compute/io/input.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"
#include "shaders/common/gpu_push.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace gpu {

nlohmann::json to_json(const Peaks& p) {
  return {{"device", p.device},           {"driver", p.driver},           {"measured", p.measured},
          {"fp32_gflops", p.fp32_gflops}, {"fp64_gflops", p.fp64_gflops}, {"saxpy_gbps", p.saxpy_gbps},
          {"copy_gbps", p.copy_gbps}};
}

Peaks peaks_from_json(const nlohmann::json& j) {
  Peaks p;
  p.device = j.value("device", "");
  p.driver = j.value("driver", "");
  p.measured = j.value("measured", "");
  p.fp32_gflops = j.value("fp32_gflops", 0.0);
  p.fp64_gflops = j.value("fp64_gflops", 0.0);
  p.saxpy_gbps = j.value("saxpy_gbps", 0.0);
  p.copy_gbps = j.value("copy_gbps", 0.0);
  return p;
}

double fma_kernel_flops(uint32_t groups, uint32_t iterations) { return double(groups) * 256 * iterations * 8 * 4 * 2; }

namespace {

constexpr float kM = 0.9999f, kC = 1e-4f;  // v -> v m + c: stays near c / (1 - m) = 1, no overflow

Pipeline fma_pipeline(Context& ctx, bool f64) {
  return make_compute(ctx, f64 ? "gpu/fma_peak_f64.comp" : "gpu/fma_peak_f32.comp", sizeof(push::PeakPush));
}

// GFLOP/s of the multiply-add kernel: the dispatch grows until one takes a few ms, then timed.
double fma_gflops(Context& ctx, bool f64, bool quick) {
  Pipeline p = fma_pipeline(ctx, f64);
  const uint32_t iterations = quick ? 64 : 1024, max_groups = quick ? 64 : (1u << 16);
  Buffer out(ctx, VkDeviceSize(max_groups) * 256 * (f64 ? 8 : 4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  uint32_t groups = quick ? 16 : 64;
  auto record = [&](VkCommandBuffer cmd) {
    p.bind(cmd, {storage_buffer(out)}, push::PeakPush{.iterations = iterations, .m = kM, .c = kC});
    vkCmdDispatch(cmd, groups, 1, 1);
  };
  for (; !quick && groups < max_groups; groups *= 4)
    if (time_gpu(ctx, record, 1, 1).median_ms >= 2.0) break;
  auto t = time_gpu(ctx, record, quick ? 3 : 9, quick ? 5 : 200);
  return t.median_ms > 0 ? fma_kernel_flops(groups, iterations) / (t.median_ms * 1e6) : 0;
}

double copy_gbps(Context& ctx, VkDeviceSize bytes, bool quick) {
  bytes = std::min<VkDeviceSize>(bytes, ctx.props.limits.maxStorageBufferRange) / 16 * 16;
  Buffer a(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT), b(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  auto t = time_gpu(
      ctx,
      [&](VkCommandBuffer cmd) {
        barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferCopy region{0, 0, bytes};
        vkCmdCopyBuffer(cmd, a.handle(), b.handle(), 1, &region);
      },
      quick ? 3 : 9, quick ? 5 : 200);
  return t.median_ms > 0 ? 2.0 * double(bytes) / (t.median_ms * 1e6) : 0;  // read and write
}

std::string utc_date() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

}  // namespace

std::vector<double> run_fma_kernel(Context& ctx, bool f64, uint32_t groups, uint32_t iterations, float m, float c) {
  if (iterations % 4) throw std::invalid_argument("the multiply-add kernel runs a multiple of 4 iterations");
  Pipeline p = fma_pipeline(ctx, f64);
  size_t n = size_t(groups) * 256;
  Buffer out(ctx, n * (f64 ? 8 : 4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    p.bind(cmd, {storage_buffer(out)}, push::PeakPush{.iterations = iterations, .m = m, .c = c});
    vkCmdDispatch(cmd, groups, 1, 1);
  });
  if (f64) return out.download<double>();
  auto v = out.download<float>();
  return std::vector<double>(v.begin(), v.end());
}

Peaks measure_peaks(Context& ctx, bool quick) {
  Peaks p;
  p.device = ctx.info.name;
  p.driver = ctx.info.driver;
  p.measured = utc_date();
  VkDeviceSize bytes = quick ? (16u << 20) : (512u << 20);
  p.saxpy_gbps = measure_bandwidth(ctx, bytes).gbps;
  p.copy_gbps = copy_gbps(ctx, bytes, quick);
  p.fp32_gflops = fma_gflops(ctx, false, quick);
  if (ctx.info.fp64) p.fp64_gflops = fma_gflops(ctx, true, quick);
  return p;
}

std::optional<Peaks> find_cached_peaks(const std::filesystem::path& file, const DeviceInfo& device) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(io::read_input(file, 16 << 20));  // a regular file, within 16 MiB
    for (auto& e : j.at("devices")) {
      Peaks p = peaks_from_json(e);
      if (p.device == device.name && p.driver == device.driver && p.valid()) return p;
    }
  } catch (const std::exception& e) {  // a damaged cache is measured again, and rewritten
    std::fprintf(stderr, "vklab: %s: %s (the peaks will be measured again)\n", platform::utf8(file).c_str(), e.what());
  }
  return std::nullopt;
}

void store_peaks(const std::filesystem::path& file, const Peaks& peaks) {
  nlohmann::json j = {{"devices", nlohmann::json::array()}};
  try {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      auto old = nlohmann::json::parse(io::read_input(file, 16 << 20));
      for (auto& e : old.at("devices"))
        if (!(e.value("device", "") == peaks.device && e.value("driver", "") == peaks.driver))
          j["devices"].push_back(e);
    }
  } catch (const std::exception&) {  // damaged: replaced by this entry alone
  }
  j["devices"].push_back(to_json(peaks));
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  try {
    io::write_file(file, j.dump(2) + "\n");
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "vklab: %s\n", e.what());
  }
}

Peaks device_peaks(Context& ctx, const std::filesystem::path& cache, bool remeasure) {
  if (!remeasure)
    if (auto p = find_cached_peaks(cache, ctx.info)) return *p;
  Peaks p = measure_peaks(ctx, false);
  if (p.valid()) store_peaks(cache, p);
  return p;
}

RooflinePlace place(const Peaks& peaks, double bytes, double flops, double ms) {
  RooflinePlace r;
  if (!peaks.valid() || ms <= 0 || (bytes <= 0 && flops <= 0)) return r;  // nothing declared: no place
  r.intensity = bytes > 0 ? flops / bytes : 0;
  double memory_ms = bytes / (peaks.saxpy_gbps * 1e6), compute_ms = flops / (peaks.fp32_gflops * 1e6);
  r.bound = compute_ms > memory_ms ? "fp32" : "memory";
  r.attainable_gflops = std::min(peaks.fp32_gflops, r.intensity * peaks.saxpy_gbps);
  r.percent = 100.0 * std::max(memory_ms, compute_ms) / ms;
  return r;
}

nlohmann::json to_json(const RooflinePlace& r) {
  return {{"arithmetic_intensity_flop_per_byte", r.intensity},
          {"attainable_gflops", r.attainable_gflops},
          {"bound", r.bound},
          {"percent_of_bound", r.percent}};
}

}  // namespace gpu
