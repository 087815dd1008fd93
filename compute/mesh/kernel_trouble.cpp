// The messages for a run's status (kernel_trouble.h).
#include "compute/mesh/kernel_trouble.h"

namespace mesh {

std::string kernel_label(const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels, uint32_t tag) {
  for (size_t k = 0; k < kernels.size(); ++k)
    if (kernels[k]->tag == tag)
      return "kernel " + std::to_string(k + 1) + " (line " + std::to_string(kernels[k]->first_line) +
             ", loop: " + short_name(kernels[k]->loop) + ")";
  return "a kernel no longer loaded";  // the status of launches recorded before the kernels changed
}

std::string kernel_trouble(const gpu::LoopStatus& s, const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels,
                           const std::string& when) {
  std::string out;
  if (s.budget_tag) {
    std::string loop = "loop", budget = "the loop budget";
    for (auto& k : kernels)
      if (k->tag == s.budget_tag) {
        budget += " (" + std::to_string(k->budget) + " iterations an invocation)";
        for (auto& l : k->loops)
          if (l.line == int(s.budget_line)) loop = std::string(gpu::loop_kind_name(l.kind)) + " loop";
      }
    out = kernel_label(kernels, s.budget_tag) + ": its " + loop + " at line " + std::to_string(s.budget_line) +
          " ran out of " + budget + " " + when + " and was stopped: does it end?";
  }
  if (s.flag_tag) {
    out += (out.empty() ? "" : "; ") + kernel_label(kernels, s.flag_tag) + " made the coordinates of " +
           std::to_string(s.flag_count) + (s.flag_count == 1 ? " vertex" : " vertices") + " NaN or infinite " + when +
           ": not stored, they keep their previous coordinates";
  }
  return out;
}

}  // namespace mesh
