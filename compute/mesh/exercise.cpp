// The mesh lab's exercise (Maréchal 2020, GMlib v3, §2.4-2.5): a gather over the vertices'
// balls, the way GMlib turns a scatter (each triangle adding its area to its 3 vertices) into
// a gather with no atomics: each vertex sums the areas of the triangles around it, read
// through the ball (VerTri: the triangles holding a vertex, padded rows, VerTriDeg of them
// used). The twin sums in the ball's order; shipped kernel: the Ver loop of the lab's own
// example "star areas", compiled and run by the lab's GpuMesh on the same areas.
#include "compute/exercise/operator.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "compute/mesh/kernel_text.h"

#include <cmath>
#include <sstream>

namespace exercise {

namespace {

const mesh::Elements& triangles_of(const mesh::Mesh& m) {
  const mesh::Elements* t = m.find(mesh::Kind::Triangles);
  if (!t) throw std::logic_error("the exercise's mesh has no triangles");
  return *t;
}

std::vector<float> areas_of(const mesh::Mesh& m) {
  const auto& t = triangles_of(m);
  std::vector<float> a;
  auto at = [&](uint32_t v, int k) { return m.xyz[size_t(v) * m.dim + k]; };
  for (size_t e = 0; e < t.count(); ++e) {
    uint32_t v0 = t.v[3 * e], v1 = t.v[3 * e + 1], v2 = t.v[3 * e + 2];
    double u[3], w[3];
    for (int k = 0; k < 3; ++k) u[k] = at(v1, k) - at(v0, k), w[k] = at(v2, k) - at(v0, k);
    double cx = u[1] * w[2] - u[2] * w[1], cy = u[2] * w[0] - u[0] * w[2], cz = u[0] * w[1] - u[1] * w[0];
    a.push_back(float(0.5 * std::sqrt(cx * cx + cy * cy + cz * cz)));
  }
  return a;
}

class StarAreas : public Operator {
 public:
  struct Push {
    uint32_t vertices, pad;
  };
  std::string id() const override { return "mesh.star-areas"; }
  std::string shipped_kernel() const override { return "the mesh lab's example \"star areas\" (its Ver loop)"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    uint32_t side = c.u("side");
    mesh::Mesh m = mesh::bumpy_grid(side);
    mesh::Ball ball = mesh::ball(triangles_of(m), m.vertices());
    uint32_t nv = uint32_t(m.vertices()), pad = ball.padded;
    std::vector<uint32_t> table(size_t(nv) * pad, UINT32_MAX);
    for (uint32_t v = 0; v < nv; ++v)
      for (uint32_t k = 0; k < ball.degree[v]; ++k) table[size_t(v) * pad + k] = ball.member(v, k);
    Problem p;
    p.arrays = {Array{"AREA", Array::Role::In, Elem::F32, 1, 0, words_of(areas_of(m))},
                Array{"BALL", Array::Role::In, Elem::U32, 1, pad, table},
                Array{"DEG", Array::Role::In, Elem::U32, 1, side, ball.degree},
                Array{"STAR", Array::Role::Out, Elem::F32, 1, side, words_of(std::vector<float>(nv, NAN))}};
    p.set_push(Push{.vertices = nv, .pad = pad});
    p.invocations = {nv, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case&, const Problem& p) const override {
    auto area = floats_of(p.arrays[0].words);
    const auto &table = p.arrays[1].words, &deg = p.arrays[2].words;
    uint32_t pad = p.arrays[1].width;
    Want w;
    for (size_t v = 0; v < deg.size(); ++v) {
      float s = 0.0f;
      for (uint32_t k = 0; k < deg[v]; ++k) s += area[table[v * pad + k]];
      w.value.push_back(s);
    }
    return {{}, {}, {}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    mesh::Mesh m = mesh::bumpy_grid(c.u("side"));
    mesh::GpuMesh g(ctx, m);
    g.add_field("Area", mesh::Kind::Triangles);  // vec4, the area in x, as the example has it
    g.add_field("Star", mesh::Kind::Vertices);
    std::vector<double> area;
    for (float a : floats_of(p.arrays[0].words)) area.insert(area.end(), {double(a), 0.0, 0.0, 0.0});
    g.upload("Area", area);
    std::unique_ptr<mesh::GpuMesh::Kernel> k;
    for (auto& s : mesh::split(mesh::mesh_examples().at("star areas").text))
      if (s.loop == mesh::Kind::Vertices) k = g.compile(s.loop, s.body, s.first_line);
    if (!k) throw std::logic_error("the mesh lab's example \"star areas\" has no Ver loop");
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      g.record(cmd, *k);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    std::vector<float> star;
    auto values = g.download("Star");
    for (size_t v = 0; v < values.size() / 4; ++v) star.push_back(float(values[4 * v]));
    r.words = {{}, {}, {}, words_of(star)};
    return r;
  }
  std::string inputs_at(const Case&, const Problem& p, size_t, size_t v) const override {
    const auto &table = p.arrays[1].words, &deg = p.arrays[2].words;
    uint32_t pad = p.arrays[1].width;
    std::ostringstream s;
    s.precision(9);
    s << "vertex " << v << ": DEG[" << v << "] = " << deg[v] << " triangles around it, BALL[" << v << " * " << pad
      << " + k] =";
    for (uint32_t k = 0; k < pad; ++k)
      s << " " << (table[v * pad + k] == UINT32_MAX ? -1 : int64_t(table[v * pad + k]));
    s << " (-1: unused), their areas";
    for (uint32_t k = 0; k < deg[v]; ++k) s << " " << word_float(p.arrays[0].words[table[v * pad + k]]);
    return s.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> mesh_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<StarAreas>());
  return v;
}

}  // namespace exercise
