// Analytic tools (seed 003 ch. 12): a ball end, a bull nose (torus), a cone or a flat end as an
// exact surface intersected with each brin's vertical line, instead of a triangle mesh. The
// GPU engines take it as one primitive (shaders/machining/analytic.glsl); this is their CPU twin,
// the same operations in the same order.
#pragma once
#include "compute/machining/zbuffer.h"

#include <string>
#include <vector>

namespace machining {

// AnalyticTool and analytic_tool(): tool.h.

// What the shaders read in place of the triangles: (shape, radius, corner, height), then the
// 64 unit directions a tilted torus is first sampled in.
std::vector<glm::vec4> analytic_table(const AnalyticTool& t);

// Loop iterations the shaders run for one brin (the tilted torus's search), for the work plan.
uint32_t analytic_cost(const AnalyticTool& t, const std::vector<Position>& path);

// The lowest point of the placed tool over the brin at (px, py) relative to the tip: its height
// above the tip in z; false if the tool does not reach over the brin. R: float or double.
template <class R>
bool analytic_hit(const AnalyticTool& t, const std::vector<glm::vec4>& table, const PackedPosition& P, R px, R py,
                  R& z);

// The CPU engine for an analytic tool: threads owning bands of rows.
void mill_analytic_cpu(const Stock& s, std::vector<float>& heights, const AnalyticTool& tool,
                       const std::vector<Position>& path, uint32_t threads = 0);
void mill_analytic_cpu(const Stock& s, std::vector<double>& heights, const AnalyticTool& tool,
                       const std::vector<Position>& path, uint32_t threads = 0);

}  // namespace machining
