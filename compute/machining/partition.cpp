#include "compute/machining/partition.h"

#include "compute/gpu/profiler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace machining {

DynamicPartition::DynamicPartition(double budget_ms, uint32_t first, uint32_t most)
    : budget_ms_(budget_ms), next_(std::clamp(first, 1u, std::max(most, 1u))), most_(std::max(most, 1u)) {
  if (!(budget_ms > 0)) throw std::invalid_argument("a submission's time budget must be above 0 ms");
}

void DynamicPartition::feed(uint32_t count, double ms) {
  if (count == 0) return;
  const double most = std::min(double(most_), 2.0 * count);  // grow at most twice a submission
  const double aimed = ms > 0 ? count * kAim * budget_ms_ / ms : most;
  next_ = uint32_t(std::clamp(std::floor(aimed), 1.0, most));
}

uint64_t PartitionStats::positions() const {
  uint64_t n = 0;
  for (auto& s : submissions) n += s.positions;
  return n;
}

double PartitionStats::gpu_ms() const {
  double t = 0;
  for (auto& s : submissions) t += s.ms;
  return t;
}

double PartitionStats::median_ms() const {
  if (submissions.empty()) return 0;
  std::vector<double> ms;
  for (auto& s : submissions) ms.push_back(s.ms);
  std::nth_element(ms.begin(), ms.begin() + long(ms.size() / 2), ms.end());
  return ms[ms.size() / 2];
}

double PartitionStats::max_ms() const {
  double m = 0;
  for (auto& s : submissions) m = std::max(m, s.ms);
  return m;
}

uint32_t PartitionStats::over_budget() const {
  uint32_t n = 0;
  if (budget_ms > 0)
    for (auto& s : submissions) n += s.ms > budget_ms;
  return n;
}

PartitionStats mill_in_partitions(gpu::Context& ctx, Machine& m, Engine e, std::optional<uint32_t> fixed,
                                  double budget_ms, uint32_t first) {
  gpu::Profiler prof(ctx, 4);
  if (!prof.supported()) throw std::runtime_error(prof.unsupported_reason());
  const uint32_t total = uint32_t(m.positions());
  m.set_heights(std::vector<float>(size_t(m.stock().nx) * m.stock().ny, m.stock().top));
  std::optional<DynamicPartition> dynamic;
  if (!fixed) dynamic.emplace(budget_ms, first, total);
  PartitionStats stats;
  stats.budget_ms = fixed ? 0 : budget_ms;
  auto t0 = std::chrono::steady_clock::now();
  for (uint32_t done = 0; done < total;) {
    uint32_t count = std::min(fixed ? std::max(*fixed, 1u) : dynamic->next(), total - done);
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      m.record(cmd, e, done, count, &prof);
    });
    prof.resolve();
    double ms = 0;
    for (auto& s : prof.spans()) ms += s.end_ms - s.start_ms;
    stats.submissions.push_back({count, ms});
    if (dynamic) dynamic->feed(count, ms);
    done += count;
  }
  stats.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return stats;
}

}  // namespace machining
