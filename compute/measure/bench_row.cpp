// A bench row as JSON (bench_row.h).
#include "compute/measure/bench_row.h"

#include "compute/measure/cpu_baselines.h"
#include "compute/measure/roofline.h"
#include "compute/measure/timer.h"

namespace gpu {

double BenchOptions::cpu_ms(const std::string& key, const std::function<double()>& time) const {
  return cpu_baselines ? cpu_baselines->ms(key, time) : time();
}

void BenchOptions::check_only(const std::string& lab, const std::vector<std::string>& known) const {
  for (auto& name : only)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("bench: unknown configuration '" + name + "' (" + lab + ": " + list + ")");
    }
}

void BenchRow::set_times(const GpuTiming& t, double per) {
  median_ms = t.median_ms / per;
  min_ms = t.min_ms / per;
  repeats = t.repeats;
  warm_up = t.warm_up;
}

nlohmann::json bench_row_json(const BenchRow& r, const Peaks& peaks) {
  nlohmann::json j = {{"pass", r.pass},
                      {"size", r.size},
                      {"elements", r.elements},
                      {"repeats", r.repeats},
                      {"median_ms", r.median_ms},
                      {"min_ms", r.min_ms},
                      {"bytes", r.bytes},
                      {"flops", r.flops},
                      {"gbps", r.gbps()},
                      {"gflops", r.gflops()},
                      {"reference", r.reference},
                      {"note", r.note},
                      {"seconds_to_measure", r.seconds}};
  if (!r.warm_up.is_null()) j["warm_up"] = r.warm_up;
  if (peaks.valid()) j["roofline"] = to_json(place(peaks, r.bytes, r.flops, r.median_ms));
  return j;
}

}  // namespace gpu
