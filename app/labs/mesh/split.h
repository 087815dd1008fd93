// GMlib's several instances in the mesh lab (compute/mesh/split.h): the lab's mesh split over
// `split_devices` contexts, smoothed with the halos carried by the host, against the same steps on
// the lab's one context and the CPU twin; shown under the panel's header "Several devices", in the
// dump, a headless run's report and --plot.
#pragma once
#include "app/widgets/table.h"
#include "compute/mesh/split.h"

#include <nlohmann/json.hpp>

#include <string>

struct SplitReport {
  uint32_t devices = 0, steps = 0;  // devices 0: not run
  std::string where;                // "2 GPUs", "2 instances of 1 device" (SplitContexts::where)
  mesh::SplitRun one, many;
  bool equal_to_one = false, equal_to_cpu = false;
};
SplitReport run_split(gpu::Context& ctx, const mesh::Mesh& m, uint32_t devices, uint32_t steps);
TableData split_table(const SplitReport& r);
void split_panel(const SplitReport& r);
nlohmann::json split_json(const SplitReport& r);
std::string split_text(const SplitReport& r);  // a line for the headless report, "" when not run
