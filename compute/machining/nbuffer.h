// The N-buffer (seed 003, §5.3; Jerard, Drysdale et al. 1989) beside the Z-buffer (§5.4): each
// brin is a ray from its point of the starting surface (surface.h) along the surface's
// normal, holding its length from the surface (0 uncut, -depth cut), lowered to the nearest
// hit with the tool. On a flat stock it is the Z-buffer; on a curved one it measures the cut
// across the surface where the Z-buffer measures it vertically. The GPU kernel is
// shaders/machining/nbuffer.prec.comp (Machine with Stock::nbuffer, the per-brin engine).
#pragma once
#include "compute/machining/zbuffer.h"

#include <vector>

namespace machining {

// The tool's bounding sphere in its frame (centre xyz, radius): the kernels' culling.
glm::vec4 bounding_sphere(const Mesh& tool);

// The CPU twin of nbuffer.prec.comp: the same arithmetic, so the same bits (single precision);
// `lengths` one a brin, row-major.
void mill_nbuffer_cpu(const Stock& s, std::vector<float>& lengths, const Mesh& tool, const std::vector<Position>& path,
                      uint32_t threads = 0);

// The exact N-buffer of a ball end of radius r (a sphere whose lowest point is the tip), in
// double: the reference the mesh tool is compared with; with `stride` > 1 only at the brins
// whose i and j are multiples of it (NaN elsewhere).
std::vector<double> nbuffer_exact_ball(const Stock& s, double r, const std::vector<Position>& path,
                                       uint32_t stride = 1);

// What a Z-buffer's heights say about the cut along the normals: for each brin, the length at
// which its normal ray meets the bilinear surface through the heights (found by bisection in
// [-reach, 0]); NaN where the ray leaves the grid first. The N-buffer's measure from the
// Z-buffer's data.
std::vector<double> lengths_from_heights(const Stock& s, const std::vector<float>& heights, double reach);

}  // namespace machining
