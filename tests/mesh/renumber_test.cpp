// The renumbering's fast paths (a counting sort of the elements by their lowest vertex, the
// vertices sorted with their keys beside them, the gathers on every core) against the stable
// sorts they replaced, written here plainly: the same numbering, element for element, ties
// (vertices at one place, elements with one lowest vertex) in the order they had.
#include "compute/mesh/renumber.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/links.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

using namespace mesh;

namespace {

Mesh stable_sorted(Mesh m, std::optional<Kind> by_degree) {
  size_t n = m.vertices();
  std::vector<double> lo(3, 1e300), hi(3, -1e300);
  for (size_t v = 0; v < n; ++v)
    for (int c = 0; c < m.dim; ++c)
      lo[c] = std::min(lo[c], m.xyz[v * m.dim + c]), hi[c] = std::max(hi[c], m.xyz[v * m.dim + c]);
  std::vector<uint64_t> key(n);
  for (size_t v = 0; v < n; ++v) {
    uint32_t q[3] = {0, 0, 0};
    for (int c = 0; c < m.dim; ++c)
      q[c] = uint32_t(std::min((m.xyz[v * m.dim + c] - lo[c]) / (hi[c] - lo[c]), 1.0) * double((1u << 21) - 1));
    key[v] = hilbert_key(q[0], q[1], q[2], 21);
  }
  std::vector<uint32_t> width(n, 0);
  if (by_degree) {
    std::vector<uint32_t> degree(n, 0);
    for (uint32_t v : m.find(*by_degree)->v) ++degree[v];
    uint32_t padded = ball_width(*std::max_element(degree.begin(), degree.end()));
    for (size_t v = 0; v < n; ++v) width[v] = class_width(degree[v], padded);
  }
  std::vector<uint32_t> order(n), to_new(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return std::tie(width[a], key[a]) < std::tie(width[b], key[b]); });
  Mesh out = m;
  for (uint32_t k = 0; k < n; ++k) {
    to_new[order[k]] = k;
    for (int c = 0; c < m.dim; ++c) out.xyz[size_t(k) * m.dim + c] = m.xyz[size_t(order[k]) * m.dim + c];
    out.vref[k] = m.vref[order[k]];
  }
  for (auto& e : out.elements) {
    for (auto& v : e.v) v = to_new[v];
    uint32_t k = nodes_of(e.kind);
    std::vector<uint32_t> at(e.count());
    std::iota(at.begin(), at.end(), 0u);
    auto lowest = [&](uint32_t l) { return *std::min_element(e.v.begin() + l * k, e.v.begin() + (l + 1) * k); };
    std::stable_sort(at.begin(), at.end(), [&](uint32_t a, uint32_t b) { return lowest(a) < lowest(b); });
    Elements sorted = e;
    for (size_t l = 0; l < at.size(); ++l) {
      std::copy_n(e.v.begin() + at[l] * k, k, sorted.v.begin() + l * k);
      sorted.ref[l] = e.ref[at[l]];
    }
    e = std::move(sorted);
  }
  return out;
}

void expect_same(const Mesh& a, const Mesh& b) {
  EXPECT_EQ(a.xyz, b.xyz);
  EXPECT_EQ(a.vref, b.vref);
  ASSERT_EQ(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < a.elements.size(); ++i) {
    EXPECT_EQ(a.elements[i].v, b.elements[i].v) << kind_name(a.elements[i].kind);
    EXPECT_EQ(a.elements[i].ref, b.elements[i].ref) << kind_name(a.elements[i].kind);
  }
}

}  // namespace

TEST(MeshRenumber, TheFastPathsNumberAsTheStableSortsDid) {
  // Large enough that every loop runs on several threads (chunks of 2^15); shuffled first so the
  // orders are far from the answer; some vertices moved onto others, some references set, so
  // keys and references tie and differ.
  Mesh m = cube(24, Kind::Tetrahedra, 0.25);
  shuffle(m, 7);
  for (size_t v = 0; v + 40 < m.vertices(); v += 97)
    for (int c = 0; c < m.dim; ++c) m.xyz[(v + 40) * m.dim + c] = m.xyz[v * m.dim + c];
  for (size_t v = 0; v < m.vertices(); v += 5) m.vref[v] = int64_t(v % 11);
  for (auto& e : m.elements)
    for (size_t l = 0; l < e.count(); l += 3) e.ref[l] = int64_t(l % 13) + 1;
  ASSERT_GT(m.find(Kind::Tetrahedra)->count(), size_t(1) << 16);
  for (std::optional<Kind> by : {std::optional<Kind>{}, std::optional<Kind>{Kind::Tetrahedra}}) {
    SCOPED_TRACE(by ? "by degree" : "along the curve");
    Mesh fast = m;
    renumber_hilbert(fast, by);
    expect_same(fast, stable_sorted(m, by));
  }
}
