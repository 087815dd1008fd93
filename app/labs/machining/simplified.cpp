#include "app/labs/machining/simplified.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

using namespace machining;

SimplifyReadout measure_simplification(const SimplifiedTool& t, const Stock& s, const std::vector<Position>& path) {
  SimplifyReadout r;
  r.before = t.result.before;
  r.after = t.result.mesh.triangles();
  r.estimate = t.result.estimate;
  r.ms = t.result.ms;
  const glm::vec3 extent = t.original.hi() - t.original.lo();
  const float height = extent.z;
  float depth = 0;
  bool tilted = false;
  for (const auto& p : path) {
    tilted |= p.axis != glm::vec3(0, 0, 1);
    float top = float(surface_height(s.surface, s.top, p.tip.x, p.tip.y));
    depth = std::max(depth, top - p.tip.z);
  }
  if (tilted || !(depth > 0) || depth > height) depth = height;
  // a quarter of a brin, or the tool over at most about 1024 samples a side
  float spacing = std::max(s.d / 4, std::max(extent.x, extent.y) / 1024);
  r.tool = tool_height_error(t.original, t.result.mesh, spacing, std::max(depth, 1e-6f));
  r.fragments_before = fragment_stats(t.original, s.d);
  r.fragments_after = fragment_stats(t.result.mesh, s.d);
  return r;
}

void simplification_panel(const SimplifyReadout& r) {
  if (!ImGui::CollapsingHeader("Simplified tool (SIMSURF 12.1.1)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%zu triangles -> %zu by edge collapse (meshoptimizer, %.3g ms)", r.before, r.after, r.ms);
  ImGui::TextWrapped(
      "seen from below, within %.4g um of the unsimplified tool (mean %.3g um; every %.3g, up to %.3g above the "
      "tip: the path's deepest cut); meshoptimizer's own estimate %.4g um (1 unit = 1 mm)",
      r.tool.max_abs * 1e3, r.tool.mean_abs * 1e3, r.tool.spacing, r.tool.depth, r.estimate * 1e3);
  ImGui::TextWrapped(
      "fragments (figure 12.2: a triangle's box of brins, tested): largest %llu brins before, %llu after; mean %.3g "
      "and %.3g; brins inside their triangle %.1f %% and %.1f %%; thin triangles (aspect > 10) %llu and %llu",
      (unsigned long long)r.fragments_before.max_cells, (unsigned long long)r.fragments_after.max_cells,
      r.fragments_before.mean_cells, r.fragments_after.mean_cells, 100 * r.fragments_before.inside_share,
      100 * r.fragments_after.inside_share, (unsigned long long)r.fragments_before.thin,
      (unsigned long long)r.fragments_after.thin);
}

namespace {
nlohmann::json simplified_fragments_json(const FragmentStats& f) {
  return {{"max_cells", f.max_cells}, {"mean_cells", f.mean_cells},     {"total_cells", f.total_cells},
          {"inside", f.inside},       {"inside_share", f.inside_share}, {"max_aspect", f.max_aspect},
          {"thin_triangles", f.thin}};
}
}  // namespace

nlohmann::json to_json(const SimplifyReadout& r) {
  return {{"triangles_before", r.before},
          {"triangles_after", r.after},
          {"simplify_ms", r.ms},
          {"meshoptimizer_error", r.estimate},
          {"tool_height_error",
           {{"max_abs", r.tool.max_abs},
            {"mean_abs", r.tool.mean_abs},
            {"samples", r.tool.samples},
            {"spacing", r.tool.spacing},
            {"depth", r.tool.depth}}},
          {"fragments_before", simplified_fragments_json(r.fragments_before)},
          {"fragments_after", simplified_fragments_json(r.fragments_after)}};
}
