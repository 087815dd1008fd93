#include "compute/mesh/links.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <stdexcept>

namespace mesh {

const LocalTopology& local_topology(Kind k) {
  static const std::map<Kind, LocalTopology> kLocal = {
      {Kind::Vertices, {}},
      {Kind::Edges, {{{0, 1}}, {}}},
      {Kind::Triangles, {{{0, 1}, {1, 2}, {2, 0}}, {{0, 1}, {1, 2}, {2, 0}}}},
      {Kind::Quadrilaterals, {{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}}},
      {Kind::Tetrahedra,
       {{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}}},
      {Kind::Pyramids,  // base 0123, apex 4
       {{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 4}, {2, 4}, {3, 4}},
        {{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}}},
      {Kind::Prisms,  // 012 below 345
       {{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}},
        {{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}}},
      {Kind::Hexahedra,  // 0123 below 4567
       {{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}},
        {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}}}};
  return kLocal.at(k);
}

namespace {

// Items keyed by `w` vertex indices sorted ascending (padded with UINT32_MAX): each item's
// class (the items with equal keys), classes numbered in the order of their first item.
// Linear: items are bucketed by their smallest vertex, then sorted within a bucket.
std::vector<uint32_t> classes(const std::vector<uint32_t>& keys, uint32_t w, size_t vertices, size_t* count) {
  size_t n = keys.size() / w;
  std::vector<size_t> start(vertices + 2, 0);
  for (size_t i = 0; i < n; ++i) ++start[keys[i * w] + 2];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[start[keys[i * w] + 1]++] = uint32_t(i);
  std::vector<uint32_t> first(n);
  auto less = [&](uint32_t a, uint32_t b) {
    for (uint32_t j = 0; j < w; ++j)  // lexicographic on the keys, then the item
      if (keys[size_t(a) * w + j] != keys[size_t(b) * w + j]) return keys[size_t(a) * w + j] < keys[size_t(b) * w + j];
    return a < b;
  };
  auto same = [&](uint32_t a, uint32_t b) {
    return std::equal(&keys[size_t(a) * w], &keys[size_t(a) * w] + w, &keys[size_t(b) * w]);
  };
  for (size_t v = 0; v < vertices; ++v) {
    auto lo = order.begin() + long(start[v]), hi = order.begin() + long(start[v + 1]);
    std::sort(lo, hi, less);
    for (auto it = lo; it != hi; ++it) first[*it] = it != lo && same(*(it - 1), *it) ? first[*(it - 1)] : *it;
  }
  std::vector<uint32_t> id(n);
  uint32_t next = 0;
  for (size_t i = 0; i < n; ++i) id[i] = first[i] == i ? next++ : id[first[i]];
  *count = next;
  return id;
}

void check_indices(const Elements& e, size_t vertices) {
  for (uint32_t v : e.v)
    if (v >= vertices)
      throw std::invalid_argument(std::string(kind_name(e.kind)) + ": a vertex index past the vertices");
}

}  // namespace

EdgeSet extract_edges(const Mesh& m) {
  std::vector<uint32_t> keys;
  std::vector<std::pair<Kind, size_t>> spans;  // the kinds' items in `keys`, in order
  std::vector<const Elements*> sets;           // the file's edges first, so they keep their numbers
  if (m.find(Kind::Edges)) sets.push_back(m.find(Kind::Edges));
  for (const Elements& e : m.elements)
    if (e.kind != Kind::Edges) sets.push_back(&e);
  for (const Elements* set : sets) {
    const Elements& e = *set;
    check_indices(e, m.vertices());
    const auto& local = local_topology(e.kind).edges;
    if (local.empty()) continue;
    uint32_t n = nodes_of(e.kind);
    for (size_t i = 0; i < e.count(); ++i)
      for (auto [a, b] : local) {
        uint32_t p = e.v[i * n + a], q = e.v[i * n + b];
        keys.push_back(std::min(p, q)), keys.push_back(std::max(p, q));
      }
    spans.emplace_back(e.kind, e.count() * local.size());
  }
  size_t count = 0;
  auto id = classes(keys, 2, m.vertices(), &count);
  EdgeSet s;
  s.ev.resize(2 * count);
  s.ref.assign(count, 0);
  const Elements* file = m.find(Kind::Edges);
  size_t item = 0;
  for (auto [kind, n] : spans) {
    auto& of = s.edges_of[kind];
    of.assign(id.begin() + long(item), id.begin() + long(item + n));
    for (size_t i = item; i < item + n; ++i) s.ev[2 * id[i]] = keys[2 * i], s.ev[2 * id[i] + 1] = keys[2 * i + 1];
    if (kind == Kind::Edges)
      for (size_t i = 0; i < n; ++i) s.ref[id[i]] = file->ref[i];
    item += n;
  }
  return s;
}

EdgeSet extract_edges(const Elements& e) {
  Mesh m;
  m.vref.assign(e.v.empty() ? 0 : *std::max_element(e.v.begin(), e.v.end()) + 1, 0);
  m.elements.push_back(e);
  return extract_edges(m);
}

std::vector<uint32_t> neighbours(const Elements& e, size_t vertices) {
  check_indices(e, vertices);
  const auto& facets = local_topology(e.kind).facets;
  if (facets.empty()) throw std::invalid_argument(std::string("no neighbours across facets for ") + kind_name(e.kind));
  uint32_t n = nodes_of(e.kind), nf = uint32_t(facets.size());
  std::vector<uint32_t> keys;
  keys.reserve(e.count() * nf * 4);
  for (size_t i = 0; i < e.count(); ++i)
    for (const auto& f : facets) {
      std::array<uint32_t, 4> k = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
      for (size_t c = 0; c < f.size(); ++c) k[c] = e.v[i * n + f[c]];
      std::sort(k.begin(), k.end());
      keys.insert(keys.end(), k.begin(), k.end());
    }
  size_t count = 0;
  auto id = classes(keys, 4, vertices, &count);
  std::vector<uint32_t> first(count, UINT32_MAX), second(count, UINT32_MAX), uses(count, 0);
  for (size_t i = 0; i < id.size(); ++i) (uses[id[i]]++ == 0 ? first[id[i]] : second[id[i]]) = uint32_t(i / nf);
  std::vector<uint32_t> out(id.size(), UINT32_MAX);
  for (size_t i = 0; i < id.size(); ++i)
    if (uses[id[i]] == 2) out[i] = first[id[i]] == i / nf ? second[id[i]] : first[id[i]];
  return out;
}

FaceSet extract_faces(const Mesh& m) {
  std::vector<uint32_t> keys;
  struct Item {
    const Elements* e;
    uint32_t element, facet;
  };
  std::vector<Item> items;
  for (const Elements& e : m.elements) {
    if (e.kind < Kind::Tetrahedra) continue;
    check_indices(e, m.vertices());
    const auto& facets = local_topology(e.kind).facets;
    uint32_t n = nodes_of(e.kind);
    for (size_t i = 0; i < e.count(); ++i)
      for (uint32_t f = 0; f < facets.size(); ++f) {
        std::array<uint32_t, 4> k = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
        for (size_t c = 0; c < facets[f].size(); ++c) k[c] = e.v[i * n + facets[f][c]];
        std::sort(k.begin(), k.end());
        keys.insert(keys.end(), k.begin(), k.end());
        items.push_back({&e, uint32_t(i), f});
      }
  }
  size_t count = 0;
  auto id = classes(keys, 4, m.vertices(), &count);
  std::vector<uint32_t> uses(count, 0);
  for (uint32_t c : id) ++uses[c];
  auto P = [&](uint32_t v) {
    std::array<double, 3> p = {0, 0, 0};
    for (int c = 0; c < std::min(m.dim, 3); ++c) p[c] = m.xyz[size_t(v) * m.dim + c];
    return p;
  };
  FaceSet fs;
  std::vector<bool> done(count, false);
  for (size_t i = 0; i < items.size(); ++i) {
    if (done[id[i]]) continue;
    done[id[i]] = true;
    const Item& it = items[i];
    uint32_t n = nodes_of(it.e->kind);
    const uint32_t* ev = &it.e->v[size_t(it.element) * n];
    std::vector<uint32_t> face;
    for (uint32_t c : local_topology(it.e->kind).facets[it.facet]) face.push_back(ev[c]);
    // outward: the element's centre behind the face's normal (Newell's normal, for a quad too)
    std::array<double, 3> nrm = {0, 0, 0}, fc = {0, 0, 0}, ec = {0, 0, 0};
    for (size_t c = 0; c < face.size(); ++c) {
      auto p = P(face[c]), q = P(face[(c + 1) % face.size()]);
      nrm[0] += (p[1] - q[1]) * (p[2] + q[2]), nrm[1] += (p[2] - q[2]) * (p[0] + q[0]),
          nrm[2] += (p[0] - q[0]) * (p[1] + q[1]);
      for (int d = 0; d < 3; ++d) fc[d] += p[d] / double(face.size());
    }
    for (uint32_t c = 0; c < n; ++c)
      for (int d = 0; d < 3; ++d) ec[d] += P(ev[c])[d] / n;
    if (nrm[0] * (ec[0] - fc[0]) + nrm[1] * (ec[1] - fc[1]) + nrm[2] * (ec[2] - fc[2]) > 0)
      std::reverse(face.begin() + 1, face.end());
    Elements& out = face.size() == 3 ? fs.triangles : fs.quadrilaterals;
    out.v.insert(out.v.end(), face.begin(), face.end());
    out.ref.push_back(0);
    (face.size() == 3 ? fs.triangle_on_boundary : fs.quadrilateral_on_boundary).push_back(uses[id[i]] == 1);
  }
  return fs;
}

Elements FaceSet::boundary(Kind k) const {
  const Elements& all = k == Kind::Triangles ? triangles : quadrilaterals;
  const auto& on = k == Kind::Triangles ? triangle_on_boundary : quadrilateral_on_boundary;
  uint32_t n = nodes_of(k);
  Elements b{k, {}, {}};
  for (size_t i = 0; i < all.count(); ++i)
    if (on[i])
      b.v.insert(b.v.end(), all.v.begin() + long(i * n), all.v.begin() + long((i + 1) * n)), b.ref.push_back(0);
  return b;
}

Elements all_faces(const Elements* file, const FaceSet& faces, Kind k) {
  const Elements& extracted = k == Kind::Triangles ? faces.triangles : faces.quadrilaterals;
  uint32_t n = nodes_of(k);
  auto key = [n](const uint32_t* v) {
    std::array<uint32_t, 4> a = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    std::copy_n(v, n, a.begin());
    std::sort(a.begin(), a.end());
    return a;
  };
  Elements out = file ? *file : Elements{k, {}, {}};
  std::set<std::array<uint32_t, 4>> have;
  for (size_t i = 0; i < out.count(); ++i) have.insert(key(&out.v[i * n]));
  for (size_t i = 0; i < extracted.count(); ++i)
    if (have.insert(key(&extracted.v[i * n])).second)
      out.v.insert(out.v.end(), extracted.v.begin() + long(i * n), extracted.v.begin() + long((i + 1) * n)),
          out.ref.push_back(0);
  return out;
}

uint32_t ball_width(uint32_t degree) {
  uint32_t w = 1;
  while (w < degree) w *= 2;
  return w;
}

const BallClass& Ball::class_of(uint32_t target) const {
  auto c = std::upper_bound(classes.begin(), classes.end(), target,
                            [](uint32_t t, const BallClass& k) { return t < k.first; });
  return *(c - 1);
}

Ball upward(const std::vector<uint32_t>& down, uint32_t per, size_t targets, uint64_t max_bytes) {
  max_bytes = std::min(max_bytes, kMaxBallBytes);
  Ball b;
  b.degree.assign(targets, 0);
  for (uint32_t v : down) ++b.degree.at(v);
  b.max_degree = targets ? *std::max_element(b.degree.begin(), b.degree.end()) : 0;
  b.padded = ball_width(b.max_degree);
  // A class a run of one width, while the widths do not decrease.
  auto width = [&](size_t v) { return class_width(b.degree[v], b.padded); };
  for (size_t v = 0; v < targets; ++v) {
    if (!b.classes.empty() && width(v) < b.classes.back().width) {  // not sorted: one class
      b.classes = {{0, uint32_t(targets), b.padded, 0}};
      break;
    }
    if (b.classes.empty() || width(v) != b.classes.back().width) b.classes.push_back({uint32_t(v), 0, width(v), 0});
    ++b.classes.back().count;
  }
  uint64_t slots = 0;
  for (BallClass& c : b.classes) c.offset = slots, slots += uint64_t(c.count) * c.width;
  if (slots * 4 > max_bytes) {
    size_t v = size_t(std::max_element(b.degree.begin(), b.degree.end()) - b.degree.begin());
    throw std::invalid_argument("entity " + std::to_string(v + 1) + " lies on " + std::to_string(b.max_degree) +
                                " elements: the balls of the " + std::to_string(targets) + " entities, padded (to " +
                                std::to_string(b.padded) + " at most), would take " +
                                std::to_string((slots * 4) >> 20) + " MiB (at most " + std::to_string(max_bytes >> 20) +
                                " MiB: one buffer)");
  }
  while ((1u << b.corner_bits) < per) ++b.corner_bits;
  if (per && down.size() / per >= (UINT32_MAX >> b.corner_bits))
    throw std::invalid_argument(std::to_string(down.size() / per) + " elements: too many for an upward link (an " +
                                "element's index and its corner share one word: at most " +
                                std::to_string((UINT32_MAX >> b.corner_bits) - 1) + ")");
  b.members.assign(slots, UINT32_MAX);
  b.corners.assign(slots, 0);
  std::vector<uint32_t> fill(targets, 0);
  for (size_t i = 0; i < down.size(); ++i) {
    uint32_t v = down[i];
    const BallClass& c = b.class_of(v);
    size_t at = c.offset + size_t(fill[v]++) * c.count + (v - c.first);
    b.members[at] = uint32_t(i / per);
    b.corners[at] = uint8_t(i % per);
  }
  return b;
}

std::vector<uint32_t> Ball::packed() const {
  std::vector<uint32_t> p(members.size());
  for (size_t s = 0; s < members.size(); ++s)
    p[s] = members[s] == UINT32_MAX ? UINT32_MAX : members[s] << corner_bits | corners[s];
  return p;
}

}  // namespace mesh
