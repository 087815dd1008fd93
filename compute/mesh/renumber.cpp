#include "compute/mesh/renumber.h"

#include "compute/mesh/links.h"
#include "compute/mesh/parallel.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>

namespace mesh {

uint64_t hilbert_key(uint32_t x, uint32_t y, uint32_t z, int bits) {
  uint32_t X[3] = {x, y, z};
  const int n = 3;
  uint32_t M = 1u << (bits - 1);
  for (uint32_t Q = M; Q > 1; Q >>= 1) {  // inverse undo
    uint32_t P = Q - 1;
    for (int i = 0; i < n; ++i) {
      if (X[i] & Q) {
        X[0] ^= P;
      } else {
        uint32_t t = (X[0] ^ X[i]) & P;
        X[0] ^= t, X[i] ^= t;
      }
    }
  }
  for (int i = 1; i < n; ++i) X[i] ^= X[i - 1];  // Gray encode
  uint32_t t = 0;
  for (uint32_t Q = M; Q > 1; Q >>= 1)
    if (X[n - 1] & Q) t ^= Q - 1;
  for (int i = 0; i < n; ++i) X[i] ^= t;
  uint64_t key = 0;  // interleave the transposed bits, most significant first
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < n; ++i) key = key << 1 | ((X[i] >> b) & 1u);
  return key;
}

namespace {
void permute_vertices(Mesh& m, const std::vector<uint32_t>& order) {  // order[new] = old
  std::vector<uint32_t> to_new(order.size());
  parallel_for(order.size(), [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) to_new[order[k]] = uint32_t(k);
  });
  std::vector<double> xyz(m.xyz.size());
  std::vector<int64_t> ref(m.vref.size());
  parallel_for(order.size(), [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      for (int c = 0; c < m.dim; ++c) xyz[k * m.dim + c] = m.xyz[size_t(order[k]) * m.dim + c];
      ref[k] = m.vref[order[k]];
    }
  });
  m.xyz.swap(xyz), m.vref.swap(ref);
  for (auto& e : m.elements)
    parallel_for(e.v.size(), [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i) e.v[i] = to_new[e.v[i]];
    });
}

// The elements' order after their lowest vertex index, ties in the order they had: a counting
// sort, the vertices being the keys (the stable sort it replaces took seconds at 12 M elements).
std::vector<uint32_t> order_by_lowest(const Elements& e, size_t vertices) {
  const size_t k = nodes_of(e.kind), n = e.count();
  std::vector<uint32_t> lowest(n);
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t l = from; l < to; ++l)
      lowest[l] = *std::min_element(e.v.begin() + long(l * k), e.v.begin() + long((l + 1) * k));
  });
  std::vector<uint32_t> start(vertices + 1, 0);
  for (uint32_t v : lowest) ++start[size_t(v) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> order(n);
  for (size_t l = 0; l < n; ++l) order[start[lowest[l]]++] = uint32_t(l);
  return order;
}

// Elements in random order, or after their lowest vertex index (with the vertices on the
// curve, the elements follow it).
void sort_elements(Mesh& m, bool random, uint32_t seed) {
  std::mt19937 rng(seed);
  for (auto& e : m.elements) {
    size_t k = nodes_of(e.kind);
    std::vector<uint32_t> order;
    if (random) {
      order.resize(e.count());
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin(), order.end(), rng);
    } else {
      order = order_by_lowest(e, m.vertices());
    }
    std::vector<uint32_t> v(e.v.size());
    std::vector<int64_t> r(e.ref.size());
    parallel_for(order.size(), [&](size_t from, size_t to) {
      for (size_t l = from; l < to; ++l) {
        std::copy_n(e.v.begin() + long(size_t(order[l]) * k), k, v.begin() + long(l * k));
        r[l] = e.ref[order[l]];
      }
    });
    e.v.swap(v), e.ref.swap(r);
  }
}
}  // namespace

std::vector<uint32_t> renumber_hilbert(Mesh& m, std::optional<Kind> by_degree) {
  size_t n = m.vertices();
  std::vector<double> lo(3, 1e300), hi(3, -1e300);
  for (size_t v = 0; v < n; ++v)
    for (int c = 0; c < m.dim; ++c)
      lo[c] = std::min(lo[c], m.xyz[v * m.dim + c]), hi[c] = std::max(hi[c], m.xyz[v * m.dim + c]);
  const int bits = 21;
  std::vector<uint64_t> key(n);
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t v = from; v < to; ++v) {
      uint32_t q[3] = {0, 0, 0};
      for (int c = 0; c < m.dim; ++c) {
        double t = hi[c] > lo[c] ? (m.xyz[v * m.dim + c] - lo[c]) / (hi[c] - lo[c]) : 0.0;
        q[c] = uint32_t(std::min(t, 1.0) * double((1u << bits) - 1));
      }
      key[v] = hilbert_key(q[0], q[1], q[2], bits);
    }
  });
  std::vector<uint32_t> width(n, 0);
  if (by_degree) {
    const Elements* e = m.find(*by_degree);
    if (!e) throw std::invalid_argument(std::string("renumbering by degree: the mesh has no ") + kind_name(*by_degree));
    std::vector<uint32_t> degree(n, 0);
    for (uint32_t v : e->v) ++degree[v];
    uint32_t padded = ball_width(n ? *std::max_element(degree.begin(), degree.end()) : 0);
    for (size_t v = 0; v < n; ++v) width[v] = class_width(degree[v], padded);
  }
  // By class width, then along the curve, ties in index order (a stable sort's order, sorted
  // with the keys beside each other rather than looked up).
  struct Place {
    uint32_t width;
    uint64_t key;
    uint32_t v;
  };
  std::vector<Place> places(n);
  parallel_for(n, [&](size_t from, size_t to) {
    for (size_t v = from; v < to; ++v) places[v] = {width[v], key[v], uint32_t(v)};
  });
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    return std::tie(a.width, a.key, a.v) < std::tie(b.width, b.key, b.v);
  });
  std::vector<uint32_t> order(n);
  for (size_t k = 0; k < n; ++k) order[k] = places[k].v;
  permute_vertices(m, order);
  sort_elements(m, false, 0);
  std::vector<uint32_t> to_new(n);
  for (uint32_t k = 0; k < n; ++k) to_new[order[k]] = k;
  return to_new;
}

void shuffle(Mesh& m, uint32_t seed) {
  std::vector<uint32_t> order(m.vertices());
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  permute_vertices(m, order);
  sort_elements(m, true, seed + 1);
}

void renumber(Mesh& m, const std::string& how) {
  if (how == "hilbert") {
    renumber_hilbert(m);
  } else if (how == "hilbert by degree") {
    std::optional<Kind> top;
    for (Kind k : {Kind::Tetrahedra, Kind::Pyramids, Kind::Prisms, Kind::Hexahedra, Kind::Triangles,
                   Kind::Quadrilaterals, Kind::Edges})
      if (!top && m.find(k)) top = k;
    renumber_hilbert(m, top);
  } else if (how == "shuffled") {
    shuffle(m, 1);
  } else if (how != "as is") {
    throw std::invalid_argument("renumbering: '" + how + "' is none of as is, hilbert, hilbert by degree, shuffled");
  }
}

}  // namespace mesh
