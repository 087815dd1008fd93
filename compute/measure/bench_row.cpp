// A bench row as JSON (bench_row.h).
#include "compute/measure/bench_row.h"

#include "compute/measure/roofline.h"
#include "compute/measure/timer.h"

namespace gpu {

void BenchRow::set_times(const GpuTiming& t, double per) {
  median_ms = t.median_ms / per;
  min_ms = t.min_ms / per;
  repeats = t.repeats;
}

nlohmann::json bench_row_json(const BenchRow& r, const Peaks& peaks) {
  nlohmann::json j = {{"pass", r.pass},       {"size", r.size},           {"elements", r.elements},
                      {"repeats", r.repeats}, {"median_ms", r.median_ms}, {"min_ms", r.min_ms},
                      {"bytes", r.bytes},     {"flops", r.flops},         {"gbps", r.gbps()},
                      {"gflops", r.gflops()}, {"reference", r.reference}, {"note", r.note}};
  if (peaks.valid()) j["roofline"] = to_json(place(peaks, r.bytes, r.flops, r.median_ms));
  return j;
}

}  // namespace gpu
