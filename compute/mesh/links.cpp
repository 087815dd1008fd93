#include "links.h"

#include <algorithm>
#include <array>
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

FaceSet extract_faces(const Elements& tets, const std::vector<double>& xyz) {
  if (tets.kind != Kind::Tetrahedra) throw std::invalid_argument("faces are extracted from tetrahedra");
  struct Key {
    uint32_t a, b, c;
    bool operator==(const Key& o) const { return a == o.a && b == o.b && c == o.c; }
  };
  struct Hash {
    size_t operator()(const Key& k) const { return (size_t(k.a) * 73856093u) ^ (size_t(k.b) * 19349663u) ^ (size_t(k.c) * 83492791u); }
  };
  std::unordered_map<Key, std::pair<uint32_t, uint32_t>, Hash> seen;  // -> (face index, uses)
  FaceSet fs;
  std::vector<std::array<uint32_t, 4>> first_use;  // a face's tet corners: the 3 of the face, then the 4th
  static const int kFace[4][4] = {{1, 2, 3, 0}, {0, 3, 2, 1}, {0, 1, 3, 2}, {0, 2, 1, 3}};
  for (size_t t = 0; t < tets.count(); ++t)
    for (auto& f : kFace) {
      std::array<uint32_t, 4> c = {tets.v[4 * t + f[0]], tets.v[4 * t + f[1]], tets.v[4 * t + f[2]], tets.v[4 * t + f[3]]};
      std::array<uint32_t, 3> s = {c[0], c[1], c[2]};
      std::sort(s.begin(), s.end());
      auto [it, added] = seen.try_emplace(Key{s[0], s[1], s[2]}, uint32_t(fs.count()), 0u);
      if (added) fs.fv.insert(fs.fv.end(), s.begin(), s.end()), first_use.push_back(c);
      ++it->second.second;
    }
  fs.boundary.kind = Kind::Triangles;
  for (auto& [k, use] : seen) {
    if (use.second != 1) continue;
    auto c = first_use[use.first];
    auto P = [&](uint32_t v) { return std::array<double, 3>{xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]}; };
    auto a = P(c[0]), b = P(c[1]), d = P(c[2]), o = P(c[3]);
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double into = n[0] * (o[0] - a[0]) + n[1] * (o[1] - a[1]) + n[2] * (o[2] - a[2]);
    if (into > 0) std::swap(c[1], c[2]);  // outward: the tet's 4th vertex behind the face
    fs.boundary.v.insert(fs.boundary.v.end(), {c[0], c[1], c[2]});
    fs.boundary.ref.push_back(0);
  }
  return fs;
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
