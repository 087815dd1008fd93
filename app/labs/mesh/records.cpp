#include "app/labs/mesh/records.h"

#include "compute/mesh/parallel.h"

#include <numeric>

namespace mesh {

// What the picture draws of one element kind: its triangles (quadrilaterals split, the
// diagonal hidden), or for a volume kind its facets, each once, with the element across.
std::vector<render::MeshTriangle> draw_records(const Elements& e, const std::vector<uint32_t>* across) {
  const Kind k = e.kind;
  uint32_t n = nodes_of(k);
  bool volume = k >= Kind::Tetrahedra;
  const auto& facets = local_topology(k).facets;
  const std::vector<std::vector<uint32_t>> polygon_of = {{0, 1, 2}, {0, 1, 2, 3}};
  // Element i's polygons (a volume's facets, a shared one once, by the element with the lower
  // number), each with the element across it.
  auto each_polygon = [&](size_t i, auto&& take) {
    if (!volume) {
      take(polygon_of[k == Kind::Triangles ? 0 : 1], UINT32_MAX);
      return;
    }
    for (size_t f = 0; f < facets.size(); ++f) {
      uint32_t other = (*across)[i * facets.size() + f];
      if (other == UINT32_MAX || other > i) take(facets[f], other);
    }
  };
  auto records = [](const std::vector<uint32_t>& corners) { return corners.size() == 3 ? 1u : 2u; };
  // Two passes on every core: the records each range of elements makes, then the records.
  const mesh::Chunks chunks(e.count(), size_t(1) << 14);
  std::vector<size_t> at(chunks.count + 1, 0);
  chunks.each([&](size_t k, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      each_polygon(i, [&](const std::vector<uint32_t>& corners, uint32_t) { at[k + 1] += records(corners); });
  });
  std::partial_sum(at.begin(), at.end(), at.begin());
  std::vector<render::MeshTriangle> out(at[chunks.count]);
  chunks.each([&](size_t k, size_t from, size_t to) {
    render::MeshTriangle* r = out.data() + at[k];
    for (size_t i = from; i < to; ++i) {
      const uint32_t* v = &e.v[i * n];
      each_polygon(i, [&](const std::vector<uint32_t>& q, uint32_t other) {
        if (q.size() == 3) {
          *r++ = {{v[q[0]], v[q[1]], v[q[2]]}, uint32_t(i), other, 7};
        } else {  // (0 1 2) and (0 2 3): the edge 0-2 is opposite corner 1, then corner 2
          *r++ = {{v[q[0]], v[q[1]], v[q[2]]}, uint32_t(i), other, 5};
          *r++ = {{v[q[0]], v[q[2]], v[q[3]]}, uint32_t(i), other, 3};
        }
      });
    }
  });
  return out;
}

namespace {
std::vector<Kind> drawn_kinds(const GpuMesh& g) {
  bool volumes = false;
  for (Kind k : g.kinds()) volumes = volumes || k >= Kind::Tetrahedra;
  std::vector<Kind> out;
  for (Kind k : g.kinds())
    if (volumes ? k >= Kind::Tetrahedra : k == Kind::Triangles || k == Kind::Quadrilaterals) out.push_back(k);
  return out;
}
}  // namespace

std::vector<RecordsInput> records_inputs(GpuMesh& g) {
  std::vector<RecordsInput> in;
  for (Kind k : drawn_kinds(g)) in.push_back({&g.elements(k), k >= Kind::Tetrahedra ? &g.neighbours(k) : nullptr});
  return in;
}

PictureRecords picture_records(const std::vector<RecordsInput>& in) {
  PictureRecords out;
  for (auto& i : in) out.emplace_back(i.elements->kind, draw_records(*i.elements, i.across));
  return out;
}

std::vector<Picture> make_pictures(gpu::Context& ctx, PictureRecords records) {
  std::vector<Picture> pictures;
  for (auto& [k, rec] : records) {
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
