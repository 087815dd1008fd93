#include "compute/linalg/frac_index.h"

#include "compute/linalg/vec.h"
#include "shaders/linalg/linalg_push.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace linalg {

namespace {
uint32_t wrap(int64_t j, uint32_t n) { return uint32_t(((j % int64_t(n)) + n) % n); }
}  // namespace

uint32_t thesis_quad_index(uint32_t q, uint32_t i, uint32_t quads, uint32_t side) {
  float S = float(side), N = float(quads);
  float j0 = float(q / side) * S + float(q % side);  // 3.1
  float t = (float(i) + j0) / N;
  float j1 = (t - std::floor(t)) * N;  // 3.2 with 3.3: frac(a/b)·b
  float r = j1 / S;
  float u = (r - std::floor(r)) * S + 0.5f, v = std::floor(r) + 0.5f;  // 3.4, the texel centre
  int last = int(side) - 1;
  int x = std::clamp(int(std::floor(u)), 0, last), y = std::clamp(int(std::floor(v)), 0, last);
  return uint32_t(y) * side + uint32_t(x);
}

uint32_t thesis_next_quad(uint32_t base, uint32_t quads, uint32_t side) {
  return base + 1 == quads ? 0 : uint32_t((uint64_t(base) + 1) % (uint64_t(side) * side));
}

std::vector<double> banded_frac_indexed_cpu(const BandedMatrix& m, const std::vector<float>& v) {
  uint32_t quads = (m.n + 3) / 4, side = texture_side(quads);
  std::vector<float> padded(size_t(side) * side * 4, 0.0f);
  std::copy(v.begin(), v.end(), padded.begin());
  std::vector<double> out(m.n, 0.0);
  for (uint32_t q = 0; q < quads; ++q)
    for (auto& [o, d] : m.diagonals) {
      uint32_t base = thesis_quad_index(q, wrap(o >> 2, quads), quads, side);
      uint32_t next = thesis_next_quad(base, quads, side);
      float pair[8];
      for (int k = 0; k < 4; ++k) pair[k] = padded[4 * size_t(base) + k], pair[4 + k] = padded[4 * size_t(next) + k];
      for (int k = 0; k < 4 && 4 * q + k < m.n; ++k) out[4 * q + k] += double(d[4 * q + k]) * pair[(o & 3) + k];
    }
  return out;
}

std::vector<int32_t> quad_offsets(const BandedMatrix& m) {
  std::set<int32_t> s;
  for (auto& [o, d] : m.diagonals) s.insert(o >> 2);
  return {s.begin(), s.end()};
}

FracCount count_wrong_cpu(uint32_t quads, const std::vector<int32_t>& offsets) {
  FracCount c{quads, texture_side(quads)};
  for (int32_t o : offsets) {
    uint32_t i = wrap(o, quads);
    for (uint32_t q = 0; q < quads; ++q) {
      ++c.checked;
      if (thesis_quad_index(q, i, quads, c.side) != uint32_t((uint64_t(q) + i) % quads)) {
        ++c.wrong;
        if (c.first_q < 0 || q < c.first_q) c.first_q = q;
      }
    }
  }
  return c;
}

FracSweep::FracSweep(gpu::Context& ctx)
    : ctx_(ctx), pipe_(gpu::make_compute(ctx, "linalg/frac_index.comp", sizeof(push::FracSweepPush))) {}

std::vector<uint32_t> FracSweep::sizes(uint32_t dense, uint32_t max_log2) {
  std::set<uint32_t> s;
  for (uint32_t n = 1; n <= dense; ++n) s.insert(n);
  for (uint32_t k = 2; k <= max_log2; ++k)
    for (uint64_t n : {(1ull << k) - 1, 1ull << k, (1ull << k) + 1, 3ull << (k - 2)})
      if (n <= (1ull << max_log2)) s.insert(uint32_t(n));
  return {s.begin(), s.end()};
}

std::vector<FracCount> FracSweep::run(const std::vector<uint32_t>& quads, const std::vector<int32_t>& offsets) {
  if (offsets.empty() || offsets.size() > 8) throw std::invalid_argument("frac sweep: 1 to 8 quad offsets");
  for (uint32_t q : quads)
    if (q == 0) throw std::invalid_argument("frac sweep: a vector has at least one quad");
  std::vector<uint32_t> init(2 * quads.size());
  for (size_t k = 0; k < quads.size(); ++k) init[2 * k] = 0, init[2 * k + 1] = 0xffffffffu;
  gpu::Buffer out(ctx_, init.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  out.upload(init);
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    for (size_t k = 0; k < quads.size(); ++k) {
      push::FracSweepPush p{.quads = quads[k],
                            .side = texture_side(quads[k]),
                            .slot = uint32_t(k),
                            .count = uint32_t(offsets.size()),
                            .offsets_lo = {},
                            .offsets_hi = {}};
      for (size_t j = 0; j < offsets.size(); ++j) (j < 4 ? p.offsets_lo : p.offsets_hi)[int(j % 4)] = offsets[j];
      pipe_.bind(cmd, {gpu::storage_buffer(out)}, p);
      vkCmdDispatch(cmd, std::min(pipe_.groups(quads[k]).x, 65535u), 1, 1);
    }
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  });
  auto got = out.download<uint32_t>();
  std::vector<FracCount> res;
  for (size_t k = 0; k < quads.size(); ++k) {
    FracCount c{quads[k], texture_side(quads[k])};
    c.checked = uint64_t(quads[k]) * offsets.size();
    c.wrong = got[2 * k];
    c.first_q = got[2 * k + 1] == 0xffffffffu ? -1 : int64_t(got[2 * k + 1]);
    res.push_back(c);
  }
  return res;
}

nlohmann::json FracSummary::json() const {
  // Every power of two, and the first 32 sizes that go wrong (the others are only counted).
  nlohmann::json rows = nlohmann::json::array();
  uint32_t listed_wrong = 0;
  for (auto& c : counts) {
    bool pow2 = (c.quads & (c.quads - 1)) == 0, listed = c.wrong > 0 && listed_wrong < 32;
    if (!pow2 && !listed) continue;
    listed_wrong += c.wrong > 0;
    rows.push_back({{"quads", c.quads}, {"side", c.side}, {"wrong", c.wrong}, {"first_quad", c.first_q}});
  }
  return {{"sizes_swept", counts.size()},
          {"sizes_with_a_wrong_address", sizes_wrong},
          {"first_wrong_quads", first_wrong},
          {"first_wrong_power_of_two_quads", first_wrong_pow2},
          {"offsets", "the quad offsets of a 12-diagonal band: -2, -1, 0, 1"},
          {"rows", rows}};
}

FracSummary sweep_frac_index(gpu::Context& ctx, uint32_t dense, uint32_t max_log2) {
  FracSummary s;
  FracSweep sweep(ctx);
  s.counts = sweep.run(FracSweep::sizes(dense, max_log2), {-2, -1, 0, 1});
  for (auto& c : s.counts) {
    if (c.wrong == 0) continue;
    ++s.sizes_wrong;
    if (s.first_wrong < 0) s.first_wrong = c.quads;
    if (s.first_wrong_pow2 < 0 && (c.quads & (c.quads - 1)) == 0) s.first_wrong_pow2 = c.quads;
  }
  return s;
}

}  // namespace linalg
