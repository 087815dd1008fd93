#include "compute/mesh/generate.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace mesh {

Mesh bumpy_grid(uint32_t n) {
  Mesh m;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      double u = double(x) / (n - 1), v = double(y) / (n - 1);
      double j = x > 0 && y > 0 && x + 1 < n && y + 1 < n ? 1.0 : 0.0;
      m.xyz.insert(m.xyz.end(), {u + j * jitter(rng) / n, v + j * jitter(rng) / n,
                                 0.15 * std::sin(6 * u) * std::cos(5 * v) + j * 0.05 * jitter(rng)});
      m.vref.push_back(0);
    }
  Elements t{Kind::Triangles, {}, {}};
  for (uint32_t y = 0; y + 1 < n; ++y)
    for (uint32_t x = 0; x + 1 < n; ++x) {
      uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      t.v.insert(t.v.end(), {a, b, c, b, d, c});
      t.ref.insert(t.ref.end(), {1, 1});
    }
  m.elements.push_back(t);
  return m;
}

Mesh cube(uint32_t n, Kind cells, double jitter, bool mirrored) {
  if (cells != Kind::Tetrahedra && cells != Kind::Hexahedra)
    throw std::invalid_argument("cube: tetrahedra or hexahedra");
  Mesh m;
  uint32_t p = n + 1;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(-jitter / n, jitter / n);
  for (uint32_t z = 0; z < p; ++z)
    for (uint32_t y = 0; y < p; ++y)
      for (uint32_t x = 0; x < p; ++x) {
        bool inside = x > 0 && y > 0 && z > 0 && x < n && y < n && z < n;
        double j[3] = {d(rng), d(rng), d(rng)};
        for (int c = 0; c < 3; ++c) m.xyz.push_back(double(c == 0 ? x : c == 1 ? y : z) / n + (inside ? j[c] : 0.0));
        m.vref.push_back(0);
      }
  Elements e{cells, {}, {}};
  // A cell's corner b (bit 0: +x, bit 1: +y, bit 2: +z); every tetrahedron positively oriented.
  static const uint32_t kHex[8] = {0, 1, 3, 2, 4, 5, 7, 6};  // GMF order: the bottom square, then the top
  static const uint32_t kTets[6][4] = {{0, 1, 3, 7}, {0, 5, 1, 7}, {0, 3, 2, 7},
                                       {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 6, 4, 7}};
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x) {
        uint32_t flip = mirrored && cells == Kind::Tetrahedra ? (x & 1) | (y & 1) << 1 | (z & 1) << 2 : 0;
        auto corner = [&](uint32_t b) {
          b ^= flip;
          return ((z + (b >> 2 & 1)) * p + y + (b >> 1 & 1)) * p + x + (b & 1);
        };
        bool odd = (flip ^ flip >> 1 ^ flip >> 2) & 1;  // mirrored an odd number of times: reoriented
        if (cells == Kind::Hexahedra) {
          for (uint32_t b : kHex) e.v.push_back(corner(b));
          e.ref.push_back(1);
        } else {
          for (auto& t : kTets) {
            e.v.insert(e.v.end(), {corner(t[0]), corner(t[odd ? 2 : 1]), corner(t[odd ? 1 : 2]), corner(t[3])});
            e.ref.push_back(1);
          }
        }
      }
  m.elements.push_back(e);
  return m;
}

}  // namespace mesh
