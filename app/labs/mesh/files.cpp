#include "app/labs/mesh/files.h"
#include "compute/io/output.h"

#include "compute/io/npy.h"
#include "compute/mesh/io/meshb.h"
#include "compute/mesh/vtu.h"

#include <fstream>

namespace mesh {

SolField read_sol_field(const GpuMesh& g, const std::string& path) {
  SolField sol;
  auto s = read_solution(path);
  if (s.fields.empty()) throw std::invalid_argument(path + ": no solution field");
  const Solution& f = s.fields[0];
  size_t n = g.count(f.at), w = f.width(s.dim);
  if (f.count(s.dim) != n)
    throw std::invalid_argument(path + ": " + std::to_string(f.count(s.dim)) + " values at " + kind_name(f.at) +
                                ", the mesh has " + std::to_string(n));
  uint32_t c = uint32_t(std::min<size_t>(w, 4));
  sol.at = f.at;
  sol.type = {g.context().info.fp64 ? Scalar::Double : Scalar::Float, c};
  for (size_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < c; ++j) sol.values.push_back(f.values[i * w + j]);
  return sol;
}

std::vector<std::string> save_mesh(const GpuMesh& g, const std::filesystem::path& stem) {
  std::vector<std::string> columns;
  write_mesh(stem.string() + ".meshb", g.download_mesh(), 2);
  auto sol = g.download_fields(&columns);
  if (!sol.fields.empty()) write_solution(stem.string() + ".solb", sol, 2);
  return columns;
}

nlohmann::json dump_mesh(GpuMesh& g, const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels,
                         const std::filesystem::path& dir) {
  nlohmann::json arrays;
  write_npy(dir / "VerCrd.npy", g.coordinates(), {g.vertices(), 4});
  arrays["VerCrd.npy"] = "float32 [vertices, 4]: x, y, z, 0";
  nlohmann::json reductions;
  for (auto& n : g.field_names()) {
    FieldType t = g.field_type(n);
    auto v = g.download(n);
    write_npy(dir / (n + ".npy"), std::vector<float>(v.begin(), v.end()), {g.count(g.field_at(n)), field_values(t)});
    arrays[n + ".npy"] = std::string("float32 [") + kind_name(g.field_at(n)) + ", " + std::to_string(field_values(t)) +
                         "] (" + glsl_type(t) + " on the GPU)";
    auto r = g.reduce(n, 0);
    reductions[n] = {{"min", r.min}, {"max", r.max}, {"sum", r.sum}, {"l2", r.l2}};
  }
  nlohmann::json counts;
  for (Kind k : g.kinds()) counts[kind_name(k)] = g.count(k);
  nlohmann::json files = {{"mesh.meshb", "the mesh as on the GPU (moved vertices, extracted edges), GMF v2"},
                          {"mesh.solb", save_mesh(g, dir / "mesh")}};
  for (auto& name : write_vtu(dir / "mesh", g))
    files[name] = "the mesh's " + name.substr(5, name.size() - 9) +
                  " and the fields on them and on the vertices, VTK XML (ParaView opens it)";
  for (size_t k = 0; k < kernels.size(); ++k)
    for (size_t p = 0, n = kernels[k]->parts.size(); p < n; ++p) {  // a shader a degree class
      std::string name = "kernel" + std::to_string(k + 1) + (n > 1 ? ".part" + std::to_string(p + 1) : "") + ".comp";
      io::write_file(dir / name, kernels[k]->parts[p].source);
      files[name] = "the generated shader of section " + std::to_string(k + 1) +
                    (n > 1 ? ", part " + std::to_string(p + 1) + " of " + std::to_string(n) : "");
    }
  return {{"arrays", arrays}, {"files", files}, {"reductions_x", reductions}, {"counts", counts}};
}

}  // namespace mesh
