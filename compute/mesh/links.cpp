#include "compute/mesh/links.h"

#include "compute/mesh/parallel.h"

#include <algorithm>
#include <array>
#include <atomic>
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

// A table of the matching's size, its elements left uninitialised: written once, on every
// core (std::vector's zeroing of some hundred megabytes runs on one).
template <class T>
struct Uninitialised : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = Uninitialised<U>;
  };
  Uninitialised() = default;
  template <class U>
  Uninitialised(const Uninitialised<U>&) {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
};
using Table = std::vector<uint32_t, Uninitialised<uint32_t>>;

// Items keyed by `w` vertex indices sorted ascending (padded with UINT32_MAX), matched: each
// item's class (the items with equal keys), classes numbered in the order of their first
// item, and each item's class's first item (its head).
struct Classes {
  Table id, head;
  size_t count = 0;
  bool is_head(size_t i) const { return head[i] == i; }
};

// Linear: items are bucketed by their smallest vertex, then sorted within a bucket; every
// pass on every core.
Classes classes(const Table& keys, uint32_t w, size_t vertices) {
  size_t n = keys.size() / w;
  // Bucket sizes and places (the order within a bucket is set by the sort below, so the
  // threads' interleaving does not show).
  std::vector<uint32_t> start(vertices + 1, 0);
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      std::atomic_ref<uint32_t>(start[keys[i * w] + 1]).fetch_add(1, std::memory_order_relaxed);
  });
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  Table order(n);
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      order[std::atomic_ref<uint32_t>(fill[keys[i * w]]).fetch_add(1, std::memory_order_relaxed)] = uint32_t(i);
  });
  Classes c;
  c.head.resize(n);
  auto less = [&](uint32_t a, uint32_t b) {
    for (uint32_t j = 1; j < w; ++j)  // lexicographic on the keys (the first is the bucket's), then the item
      if (keys[size_t(a) * w + j] != keys[size_t(b) * w + j]) return keys[size_t(a) * w + j] < keys[size_t(b) * w + j];
    return a < b;
  };
  auto same = [&](uint32_t a, uint32_t b) {
    return std::equal(&keys[size_t(a) * w], &keys[size_t(a) * w] + w, &keys[size_t(b) * w]);
  };
  parallel_for(
      vertices,
      [&](size_t from, size_t to) {  // the buckets are apart: a range of them a thread
        for (size_t v = from; v < to; ++v) {
          auto lo = order.begin() + long(start[v]), hi = order.begin() + long(start[v + 1]);
          std::sort(lo, hi, less);
          for (auto it = lo; it != hi; ++it) c.head[*it] = it != lo && same(*(it - 1), *it) ? c.head[*(it - 1)] : *it;
        }
      },
      4096);
  // A head takes the count of heads before it, the others their head's number.
  const Chunks chunks(n);
  std::vector<uint32_t> heads(chunks.count + 1, 0);
  c.id.resize(n);
  chunks.each([&](size_t k, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) heads[k + 1] += c.is_head(i);
  });
  std::partial_sum(heads.begin(), heads.end(), heads.begin());
  chunks.each([&](size_t k, size_t from, size_t to) {
    uint32_t next = heads[k];
    for (size_t i = from; i < to; ++i)
      if (c.is_head(i)) c.id[i] = next++;
  });
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (!c.is_head(i)) c.id[i] = c.id[c.head[i]];  // a head comes first: its number is set
  });
  c.count = heads[chunks.count];
  return c;
}

// How many items each class has, counted on every core.
std::vector<uint32_t> class_sizes(const Classes& c) {
  std::vector<uint32_t> uses(c.count, 0);
  parallel_for(c.id.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) std::atomic_ref<uint32_t>(uses[c.id[i]]).fetch_add(1, std::memory_order_relaxed);
  });
  return uses;
}

// Each facet's element across it, facets `nf` an element: the other element of a class of
// two, else UINT32_MAX (a boundary facet, or one of more than two).
std::vector<uint32_t> across_facets(const Classes& c, const std::vector<uint32_t>& uses, size_t nf) {
  std::vector<uint32_t> tail(c.count, UINT32_MAX), out(c.id.size());
  parallel_for(c.id.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (!c.is_head(i) && uses[c.id[i]] == 2) tail[c.id[i]] = uint32_t(i);  // the one other item
  });
  parallel_for(c.id.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      uint32_t k = c.id[i];
      out[i] = uses[k] != 2 ? UINT32_MAX : uint32_t((c.is_head(i) ? tail[k] : c.head[i]) / nf);
    }
  });
  return out;
}

void check_indices(const Elements& e, size_t vertices) {
  for (uint32_t v : e.v)
    if (v >= vertices)
      throw std::invalid_argument(std::string(kind_name(e.kind)) + ": a vertex index past the vertices");
}

// Each element's facets as keys of 4 vertex indices sorted ascending (a triangle's padded
// with UINT32_MAX), the element's facets in order: the keys classes() matches facets by.
// `keys` from item `at` on.
void facet_keys(const Elements& e, Table& keys, size_t at) {
  const auto& facets = local_topology(e.kind).facets;
  uint32_t n = nodes_of(e.kind), nf = uint32_t(facets.size());
  parallel_for(e.count(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      for (uint32_t f = 0; f < nf; ++f) {
        std::array<uint32_t, 4> k = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
        for (size_t c = 0; c < facets[f].size(); ++c) k[c] = e.v[i * n + facets[f][c]];
        std::sort(k.begin(), k.end());
        std::copy(k.begin(), k.end(), keys.begin() + long(4 * (at + i * nf + f)));
      }
  });
}

}  // namespace

EdgeSet extract_edges(const Mesh& m) {
  Table keys;
  std::vector<std::pair<Kind, size_t>> spans;  // the kinds' items in `keys`, in order
  std::vector<const Elements*> sets;           // the file's edges first, so they keep their numbers
  if (m.find(Kind::Edges)) sets.push_back(m.find(Kind::Edges));
  for (const Elements& e : m.elements)
    if (e.kind != Kind::Edges) sets.push_back(&e);
  size_t total = 0;
  for (const Elements* set : sets) {
    check_indices(*set, m.vertices());
    total += set->count() * local_topology(set->kind).edges.size();
  }
  keys.resize(2 * total);
  size_t at = 0;  // the set's first item in `keys`
  for (const Elements* set : sets) {
    const Elements& e = *set;
    const auto& local = local_topology(e.kind).edges;
    if (local.empty()) continue;
    uint32_t n = nodes_of(e.kind);
    parallel_for(e.count(), [&](size_t from, size_t to) {
      uint32_t* k = keys.data() + 2 * (at + from * local.size());
      for (size_t i = from; i < to; ++i)
        for (auto [a, b] : local) {
          uint32_t p = e.v[i * n + a], q = e.v[i * n + b];
          *k++ = std::min(p, q), *k++ = std::max(p, q);
        }
    });
    spans.emplace_back(e.kind, e.count() * local.size());
    at += e.count() * local.size();
  }
  Classes c = classes(keys, 2, m.vertices());
  EdgeSet s;
  s.ev.resize(2 * c.count);
  s.ref.assign(c.count, 0);
  parallel_for(c.id.size(), [&](size_t from, size_t to) {  // an edge's vertices from its first item
    for (size_t i = from; i < to; ++i)
      if (c.is_head(i)) s.ev[2 * c.id[i]] = keys[2 * i], s.ev[2 * c.id[i] + 1] = keys[2 * i + 1];
  });
  const Elements* file = m.find(Kind::Edges);
  size_t item = 0;
  for (auto [kind, n] : spans) {
    s.edges_of[kind].assign(c.id.begin() + long(item), c.id.begin() + long(item + n));
    if (kind == Kind::Edges)
      for (size_t i = 0; i < n; ++i) s.ref[c.id[i]] = file->ref[i];
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
  Table keys(4 * e.count() * facets.size());
  facet_keys(e, keys, 0);
  Classes c = classes(keys, 4, vertices);
  return across_facets(c, class_sizes(c), facets.size());
}

FaceSet extract_faces(const Mesh& m, bool boundary_only) {
  // Every volume's facets, keyed and matched (one class a face), the volumes in file order.
  Table keys;
  struct Span {
    const Elements* e;
    size_t first;  // its first facet among all
  };
  std::vector<Span> spans;
  size_t total = 0;
  for (const Elements& e : m.elements) {
    if (e.kind < Kind::Tetrahedra) continue;
    check_indices(e, m.vertices());
    spans.push_back({&e, total});
    total += e.count() * local_topology(e.kind).facets.size();
  }
  keys.resize(4 * total);
  for (auto& sp : spans) facet_keys(*sp.e, keys, sp.first);
  Classes c = classes(keys, 4, m.vertices());
  std::vector<uint32_t> uses = class_sizes(c);
  FaceSet fs;
  if (spans.size() == 1) {  // one volume kind: its neighbours come with the faces
    fs.volume_kind = spans[0].e->kind;
    fs.across = across_facets(c, uses, local_topology(fs.volume_kind).facets.size());
  }
  auto P = [&](uint32_t v) {
    std::array<double, 3> p = {0, 0, 0};
    for (int c = 0; c < std::min(m.dim, 3); ++c) p[c] = m.xyz[size_t(v) * m.dim + c];
    return p;
  };
  // The span (volume kind) an item lies in.
  auto span_of = [&](size_t i) {
    size_t k = 0;
    while (k + 1 < spans.size() && spans[k + 1].first <= i) ++k;
    return k;
  };
  // The face of item i as its first element has it, turned to face out of that element.
  auto face_of = [&](size_t i, std::array<uint32_t, 4>& face) -> size_t {
    const Span& sp = spans[span_of(i)];
    const Elements& e = *sp.e;
    const auto& facets = local_topology(e.kind).facets;
    size_t element = (i - sp.first) / facets.size(), facet = (i - sp.first) % facets.size();
    uint32_t n = nodes_of(e.kind);
    const uint32_t* ev = &e.v[element * n];
    size_t size = facets[facet].size();
    for (size_t c = 0; c < size; ++c) face[c] = ev[facets[facet][c]];
    // outward: the element's centre behind the face's normal (Newell's normal, for a quad too)
    std::array<double, 3> nrm = {0, 0, 0}, fc = {0, 0, 0}, ec = {0, 0, 0};
    for (size_t c = 0; c < size; ++c) {
      auto p = P(face[c]), q = P(face[(c + 1) % size]);
      nrm[0] += (p[1] - q[1]) * (p[2] + q[2]), nrm[1] += (p[2] - q[2]) * (p[0] + q[0]),
          nrm[2] += (p[0] - q[0]) * (p[1] + q[1]);
      for (int d = 0; d < 3; ++d) fc[d] += p[d] / double(size);
    }
    for (uint32_t c = 0; c < n; ++c)
      for (int d = 0; d < 3; ++d) ec[d] += P(ev[c])[d] / n;
    if (nrm[0] * (ec[0] - fc[0]) + nrm[1] * (ec[1] - fc[1]) + nrm[2] * (ec[2] - fc[2]) > 0)
      std::reverse(face.begin() + 1, face.begin() + long(size));
    return size;
  };
  // Each face once, by its first item (a class's head), in the items' order: the faces each
  // range of items gives (triangles, quadrilaterals), then the faces, on every core.
  auto chosen = [&](size_t i) { return c.is_head(i) && (!boundary_only || uses[c.id[i]] == 1); };
  const size_t n = c.id.size();
  const Chunks chunks(n);
  const size_t last = chunks.count;
  std::vector<std::array<size_t, 2>> at(last + 1, {0, 0});
  chunks.each([&](size_t k, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (chosen(i)) ++at[k + 1][keys[4 * i + 3] != UINT32_MAX];
  });
  for (size_t k = 0; k < last; ++k) at[k + 1][0] += at[k][0], at[k + 1][1] += at[k][1];
  fs.triangles.v.resize(3 * at[last][0]), fs.triangles.ref.assign(at[last][0], 0);
  fs.quadrilaterals.v.resize(4 * at[last][1]), fs.quadrilaterals.ref.assign(at[last][1], 0);
  fs.triangle_on_boundary.resize(at[last][0]), fs.quadrilateral_on_boundary.resize(at[last][1]);
  chunks.each([&](size_t k, size_t from, size_t to) {
    std::array<size_t, 2> next = at[k];
    for (size_t i = from; i < to; ++i) {
      if (!chosen(i)) continue;
      std::array<uint32_t, 4> face;
      size_t size = face_of(i, face);
      bool q = size == 4;
      Elements& out = q ? fs.quadrilaterals : fs.triangles;
      std::copy_n(face.begin(), size, out.v.begin() + long(next[q] * size));
      (q ? fs.quadrilateral_on_boundary : fs.triangle_on_boundary)[next[q]] = uses[c.id[i]] == 1;
      ++next[q];
    }
  });
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
  parallel_for(down.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (down[i] >= targets)
        throw std::out_of_range("upward: entity " + std::to_string(down[i]) + " of " + std::to_string(targets));
      std::atomic_ref<uint32_t>(b.degree[down[i]]).fetch_add(1, std::memory_order_relaxed);
    }
  });
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
  // Each target's entries, in the order of `down` (a counting sort: placed on every core, then
  // each target's few put back in order), into its ball's slots.
  std::vector<size_t> start(targets + 1, 0);
  std::partial_sum(b.degree.begin(), b.degree.end(), start.begin() + 1);
  std::vector<size_t> fill(start.begin(), start.end() - 1);
  std::vector<uint32_t> order(down.size());
  parallel_for(down.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      order[std::atomic_ref<size_t>(fill[down[i]]).fetch_add(1, std::memory_order_relaxed)] = uint32_t(i);
  });
  parallel_for(
      targets,
      [&](size_t from, size_t to) {
        for (size_t v = from; v < to; ++v) {
          std::sort(order.begin() + long(start[v]), order.begin() + long(start[v + 1]));
          const BallClass& c = b.class_of(uint32_t(v));
          for (size_t k = 0; k < start[v + 1] - start[v]; ++k) {
            uint32_t i = order[start[v] + k];
            size_t at = c.offset + k * c.count + (v - c.first);
            b.members[at] = i / per;
            b.corners[at] = uint8_t(i % per);
          }
        }
      },
      4096);
  return b;
}

std::vector<uint32_t> Ball::packed() const {
  std::vector<uint32_t> p(members.size());
  for (size_t s = 0; s < members.size(); ++s)
    p[s] = members[s] == UINT32_MAX ? UINT32_MAX : members[s] << corner_bits | corners[s];
  return p;
}

}  // namespace mesh
