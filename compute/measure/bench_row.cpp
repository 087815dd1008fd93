// A bench row as JSON (bench_row.h).
#include "compute/measure/bench_row.h"

#include "compute/measure/roofline.h"

namespace gpu {

nlohmann::json bench_row_json(const BenchRow& r, const Peaks& peaks) {
  nlohmann::json j = {{"pass", r.pass},       {"size", r.size},           {"elements", r.elements},
                      {"repeats", r.repeats}, {"median_ms", r.median_ms}, {"min_ms", r.min_ms},
                      {"bytes", r.bytes},     {"flops", r.flops},         {"gbps", r.gbps()},
                      {"gflops", r.gflops()}, {"reference", r.reference}, {"note", r.note}};
  if (peaks.valid()) j["roofline"] = to_json(place(peaks, r.bytes, r.flops, r.median_ms));
  return j;
}

}  // namespace gpu
