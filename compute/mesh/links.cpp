#include "links.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace mesh {

namespace {
uint64_t edge_key(uint32_t a, uint32_t b) { return a < b ? (uint64_t(a) << 32 | b) : (uint64_t(b) << 32 | a); }
uint32_t corners(const Elements& f) {
  if (f.kind != Kind::Triangles && f.kind != Kind::Quadrilaterals)
    throw std::invalid_argument("edges, neighbours and balls are built from triangles or quadrilaterals");
  return nodes_of(f.kind);
}
}  // namespace

EdgeSet extract_edges(const Elements& faces) {
  uint32_t k = corners(faces);
  EdgeSet e;
  std::unordered_map<uint64_t, uint32_t> index;
  index.reserve(faces.count() * k);
  for (size_t f = 0; f < faces.count(); ++f)
    for (uint32_t c = 0; c < k; ++c) {
      uint32_t a = faces.v[f * k + c], b = faces.v[f * k + (c + 1) % k];
      auto [it, added] = index.try_emplace(edge_key(a, b), uint32_t(e.count()));
      if (added) e.ev.insert(e.ev.end(), {std::min(a, b), std::max(a, b)});
      e.face_edges.push_back(it->second);
    }
  return e;
}

std::vector<uint32_t> neighbours(const Elements& faces, const EdgeSet& edges) {
  uint32_t k = corners(faces);
  std::vector<uint32_t> first(edges.count(), UINT32_MAX), second(edges.count(), UINT32_MAX), shared(edges.count(), 0);
  for (size_t f = 0; f < faces.count(); ++f)
    for (uint32_t c = 0; c < k; ++c) {
      uint32_t e = edges.face_edges[f * k + c];
      (shared[e]++ == 0 ? first[e] : second[e]) = uint32_t(f);
    }
  std::vector<uint32_t> out(faces.count() * k, UINT32_MAX);
  for (size_t f = 0; f < faces.count(); ++f)
    for (uint32_t c = 0; c < k; ++c) {
      uint32_t e = edges.face_edges[f * k + c];
      if (shared[e] == 2) out[f * k + c] = first[e] == f ? second[e] : first[e];
    }
  return out;
}

Ball ball(const Elements& faces, size_t vertices) {
  uint32_t k = corners(faces);
  Ball b;
  b.degree.assign(vertices, 0);
  for (uint32_t v : faces.v) ++b.degree.at(v);
  b.max_degree = vertices ? *std::max_element(b.degree.begin(), b.degree.end()) : 0;
  b.padded = 1;
  while (b.padded < b.max_degree) b.padded *= 2;
  b.faces.assign(vertices * b.padded, UINT32_MAX);
  std::vector<uint32_t> fill(vertices, 0);
  for (size_t f = 0; f < faces.count(); ++f)
    for (uint32_t c = 0; c < k; ++c) {
      uint32_t v = faces.v[f * k + c];
      b.faces[size_t(v) * b.padded + fill[v]++] = uint32_t(f);
    }
  return b;
}

}  // namespace mesh
