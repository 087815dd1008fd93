// The thesis's index arithmetic (Bleton 2005, §3.3.4, formulas 3.1-3.4): the banded product
// found the quad of V to multiply by a modulo emulated in float, frac(a/b)·b, and turned it
// into a texel with frac and floor again. Ops::set_frac_index() makes the banded operator
// address V that way; these are its CPU twin and a sweep that finds the sizes where the
// float arithmetic names the wrong quad.
#pragma once
#include "compute/linalg/matrix.h"

#include <nlohmann/json.hpp>

namespace linalg {

// The texel index (y·side + x) the thesis's formulas fetch for quad (q + i) mod quads, in
// float with IEEE division (twin of shaders/linalg/thesis_index.glsl).
uint32_t thesis_quad_index(uint32_t q, uint32_t i, uint32_t quads, uint32_t side);
uint32_t thesis_next_quad(uint32_t base, uint32_t quads, uint32_t side);  // its offset texture: exact
// M·v as the frac-indexed thesis kernel computes it, wrong quads included, in double.
std::vector<double> banded_frac_indexed_cpu(const BandedMatrix& m, const std::vector<float>& v);
// The quad offsets floor(o/4) a band's diagonals ask for, and their second quads.
std::vector<int32_t> quad_offsets(const BandedMatrix& m);

struct FracCount {
  uint32_t quads = 0, side = 0;
  uint64_t checked = 0, wrong = 0;  // (quad, offset) pairs
  int64_t first_q = -1;             // the lowest result quad with a wrong address (-1: none)
};
FracCount count_wrong_cpu(uint32_t quads, const std::vector<int32_t>& offsets);

// The same count on the GPU, for many vector sizes (in quads) in one submission.
class FracSweep {
 public:
  explicit FracSweep(gpu::Context& ctx);
  std::vector<FracCount> run(const std::vector<uint32_t>& quads, const std::vector<int32_t>& offsets);
  // The sizes the panel and the bench sweep: every N up to `dense`, then 2^k − 1, 2^k, 2^k + 1
  // and 3·2^(k−2) up to 2^max_log2.
  static std::vector<uint32_t> sizes(uint32_t dense, uint32_t max_log2);

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipe_;
};

struct FracSummary {
  std::vector<FracCount> counts;  // every size swept
  int64_t first_wrong = -1;       // the smallest size (quads) with a wrong address
  int64_t first_wrong_pow2 = -1;  // the smallest power of two with one
  uint32_t sizes_wrong = 0;       // how many of the sizes have one
  nlohmann::json json() const;
};
// Sweeps FracSweep::sizes(dense, max_log2) with the quad offsets of a 12-diagonal band.
FracSummary sweep_frac_index(gpu::Context& ctx, uint32_t dense, uint32_t max_log2);

}  // namespace linalg
