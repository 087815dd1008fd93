#include "app/labs/mesh/records.h"

namespace mesh {

// What the picture draws of one element kind: its triangles (quadrilaterals split, the
// diagonal hidden), or for a volume kind its facets, each once, with the element across.
std::vector<render::MeshTriangle> draw_records(GpuMesh& g, Kind k) {
  std::vector<render::MeshTriangle> out;
  const Elements& e = g.elements(k);
  uint32_t n = nodes_of(k);
  bool volume = k >= Kind::Tetrahedra;
  const auto& facets = local_topology(k).facets;
  const std::vector<uint32_t>* across = volume ? &g.neighbours(k) : nullptr;
  auto polygon = [&](size_t i, const std::vector<uint32_t>& corners, uint32_t other) {
    const uint32_t* v = &e.v[i * n];
    if (corners.size() == 3) {
      out.push_back({{v[corners[0]], v[corners[1]], v[corners[2]]}, uint32_t(i), other, 7});
    } else {  // (0 1 2) and (0 2 3): the edge 0-2 is opposite corner 1, then corner 2
      out.push_back({{v[corners[0]], v[corners[1]], v[corners[2]]}, uint32_t(i), other, 5});
      out.push_back({{v[corners[0]], v[corners[2]], v[corners[3]]}, uint32_t(i), other, 3});
    }
  };
  for (size_t i = 0; i < e.count(); ++i) {
    if (!volume)
      polygon(i, k == Kind::Triangles ? std::vector<uint32_t>{0, 1, 2} : std::vector<uint32_t>{0, 1, 2, 3}, UINT32_MAX);
    else
      for (size_t f = 0; f < facets.size(); ++f) {
        uint32_t other = (*across)[i * facets.size() + f];
        if (other == UINT32_MAX || other > i) polygon(i, facets[f], other);  // a shared facet once
      }
  }
  return out;
}

std::vector<Picture> make_pictures(gpu::Context& ctx, GpuMesh& g) {
  std::vector<Picture> pictures;
  bool volumes = false;
  for (Kind k : g.kinds()) volumes = volumes || k >= Kind::Tetrahedra;
  for (Kind k : g.kinds()) {
    if (volumes ? k < Kind::Tetrahedra : k != Kind::Triangles && k != Kind::Quadrilaterals) continue;
    auto rec = draw_records(g, k);
    Picture p{k,
              gpu::Buffer(ctx, std::max<size_t>(32, rec.size() * sizeof(render::MeshTriangle)),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT),
              uint32_t(rec.size())};
    if (!rec.empty()) p.records.upload(rec);
    pictures.push_back(std::move(p));
  }
  return pictures;
}

}  // namespace mesh
