// Matrices as sets of vectors (seed 000, §3.2.2): banded by diagonals (offset -> vector),
// dense by columns. Both keep a CPU copy for the references.
#pragma once
#include "compute/linalg/vec.h"

#include <map>

namespace linalg {

// M[i][(i + offset) mod n] = diagonal(offset)[i]  (the thesis's wrap-around indexing; a
// proper band has zeros where i + offset leaves [0, n)).
struct BandedMatrix {
  uint32_t n = 0;
  std::map<int, std::vector<float>> diagonals;  // offset -> n values
};

// The 5-point Laplacian of a w x h grid (row-major), zero outside (Dirichlet): diagonals
// 0, ±1, ±w with the entries that would cross the border zeroed.
BandedMatrix laplacian_5pt(uint32_t w, uint32_t h);
// I - c·L: the implicit diffusion / wave matrix, symmetric positive definite for c > 0.
BandedMatrix implicit_laplacian(uint32_t w, uint32_t h, float c);
// Random symmetric, strictly diagonally dominant (so SPD) band with the given offsets > 0
// (and their negatives), for solver tests.
BandedMatrix random_spd_band(uint32_t n, const std::vector<int>& upper_offsets, uint32_t seed);
// 12 diagonals as in the thesis's table 4.3: offsets -6..5, random non-zero values.
BandedMatrix random_band(uint32_t n, int diagonals, uint32_t seed);

// A constant 5-point operator on a w x h grid, zero outside (Dirichlet), applied without
// storing it: (A·v)[i] = diag·v[i] + off·(sum of v at i's 4 neighbours). The same matrix as
// banded() — diagonals 0, ±1, ±w with the entries that cross the border zeroed — so the two
// paths give the same answers; w must be a multiple of 4 (rows start on a quad).
struct Stencil5 {
  uint32_t w = 0, h = 0;
  float diag = 1, off = 0;
  uint32_t n() const { return w * h; }
  BandedMatrix banded() const;
};

// n x n; the GPU copy keeps the thesis's columns and, for the modern kernel, rows.
struct DenseMatrix {
  uint32_t n = 0;
  std::vector<float> columns;  // column c is columns[c*n .. c*n + n)
};
DenseMatrix random_dense(uint32_t n, uint32_t seed);

// GPU copies.
class GpuBanded {
 public:
  // `keep_host`: also keep the packed diagonals in host memory, for record_upload().
  GpuBanded(gpu::Context& ctx, const BandedMatrix& m, Layout layout, bool keep_host = false);
  uint32_t n, quads, side, count;
  Layout layout;
  std::vector<int> offsets;
  gpu::Image image;    // texture layout: an RGBA32F array, one layer a diagonal
  gpu::Buffer buffer;  // buffer layout: diagonal d at quads d·Q
  gpu::Buffer offset_buffer;
  gpu::Buffer host;  // keep_host: the packed diagonals, host-visible
  gpu::Bind bind_diagonals() const;
  // The matrix over the bus again, from `host` into the image or buffer, as a matrix that
  // changes every step must go (Bleton 2005 §4.1.1 and §4.4.1: "pour chaque itération le
  // transfert depuis le CPU vers le GPU des nouveaux coefficients"); barriers on both sides.
  void record_upload(VkCommandBuffer cmd) const;
  double bytes() const { return double(host.size()); }
};

class GpuDense {
 public:
  GpuDense(gpu::Context& ctx, const DenseMatrix& m);
  uint32_t n, quads;
  gpu::Buffer columns;  // 4·quads columns of quads vec4 (the thesis's set of column vectors)
  gpu::Buffer rows;     // 4·quads rows of quads vec4 (row-major, for coalesced row sums)
};

}  // namespace linalg
