#include "compute/machining/bvh.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

namespace machining {

namespace {

struct Builder {
  const Mesh& tool;
  std::vector<glm::vec3> centroid;
  Bvh bvh;

  glm::vec3 vertex(uint32_t t, int k) const { return tool.vertices[3 * size_t(t) + k]; }

  // Fills node `at` with the triangles order[first, first + count).
  void build(uint32_t at, uint32_t first, uint32_t count, uint32_t depth) {
    bvh.depth = std::max(bvh.depth, depth);
    glm::vec3 lo(INFINITY), hi(-INFINITY), clo(INFINITY), chi(-INFINITY);
    for (uint32_t k = first; k < first + count; ++k) {
      uint32_t t = bvh.order[k];
      for (int v = 0; v < 3; ++v) lo = glm::min(lo, vertex(t, v)), hi = glm::max(hi, vertex(t, v));
      clo = glm::min(clo, centroid[t]), chi = glm::max(chi, centroid[t]);
    }
    // a margin far above the kernels' rounding of the ray into the tool's frame
    glm::vec3 margin = 1e-4f * (hi - lo) + glm::vec3(1e-5f * std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, 1e-3f}));
    BvhNode& n = bvh.nodes[at];
    n.lo = glm::vec4(lo - margin, 0.0f), n.hi = glm::vec4(hi + margin, 0.0f);
    if (count <= Bvh::kLeaf) {
      n.lo.w = std::bit_cast<float>(first), n.hi.w = std::bit_cast<float>(count);
      ++bvh.leaves;
      return;
    }
    glm::vec3 extent = chi - clo;
    int axis = extent.y > extent.x ? (extent.z > extent.y ? 2 : 1) : (extent.z > extent.x ? 2 : 0);
    uint32_t half = count / 2;
    std::nth_element(bvh.order.begin() + first, bvh.order.begin() + first + half, bvh.order.begin() + first + count,
                     [&](uint32_t a, uint32_t b) {
                       return centroid[a][axis] < centroid[b][axis] ||
                              (centroid[a][axis] == centroid[b][axis] && a < b);
                     });
    uint32_t child = uint32_t(bvh.nodes.size());
    bvh.nodes.resize(bvh.nodes.size() + 2);
    bvh.nodes[at].lo.w = std::bit_cast<float>(child);
    bvh.nodes[at].hi.w = std::bit_cast<float>(0u);
    build(child, first, half, depth + 1);
    build(child + 1, first + half, count - half, depth + 1);
  }
};

}  // namespace

Bvh build_bvh(const Mesh& tool) {
  const uint32_t triangles = uint32_t(tool.triangles());
  if (!triangles) throw std::invalid_argument("a hierarchy needs a tool with triangles");
  Builder b{tool, std::vector<glm::vec3>(triangles), {}};
  for (uint32_t t = 0; t < triangles; ++t) b.centroid[t] = (b.vertex(t, 0) + b.vertex(t, 1) + b.vertex(t, 2)) / 3.0f;
  b.bvh.order.resize(triangles);
  std::iota(b.bvh.order.begin(), b.bvh.order.end(), 0u);
  b.bvh.nodes.resize(1);
  b.build(0, 0, triangles, 1);
  if (b.bvh.depth + 1 > Bvh::kStack) throw std::runtime_error("the tool's hierarchy is deeper than the kernel's stack");
  return b.bvh;
}

Mesh in_bvh_order(const Mesh& tool, const Bvh& bvh) {
  Mesh m;
  m.vertices.reserve(tool.vertices.size());
  for (uint32_t t : bvh.order)
    for (int v = 0; v < 3; ++v) m.vertices.push_back(tool.vertices[3 * size_t(t) + v]);
  return m;
}

}  // namespace machining
