// The max and min of a vector (Bleton 2005, §2.4.2 and figure 2.10 "Calcul du max par la
// méthode de réduction", after Krüger and Westermann 2003): the thesis's passes, each drawing
// a texture half the side (4 times fewer values), down to one texel, beside today's one-pass
// reduction (Ops::extreme records both). Here: how many passes of which sizes, the count's
// formula, and the CPU references.
#pragma once
#include "compute/linalg/vec.h"

#include <string>
#include <vector>

namespace linalg {

enum class Extreme { Max, Min };
const char* extreme_name(Extreme e);  // "max" / "min"

// One pass of the thesis's reduction: it reads in_quads quads (4 values each) and writes
// out_quads, one value for every 4 read. Sides are texture sides (texture layout; 0 for
// buffers). The last pass reads the one quad left and writes the scalar (out_quads 0).
struct ExtremePass {
  uint32_t in_quads, in_side, out_quads, out_side;
};

// The passes for a vector of n values in `layout`: texture layout, side S = 2^k: k passes
// S -> S/2 -> ... -> 1 texel, then the last texel's 4 values -> 1; buffer layout: quads
// ceil(q/4) until one, then the same last pass.
std::vector<ExtremePass> extreme_passes(Layout layout, uint32_t n);
// Their count by formula: max(1, ceil(log4 n)), one 4:1 step of the values each. The thesis
// says "n - 1 passes for a texture of dimension 2^n": with 4 values a texel, 2^n is the side of
// the square of values (twice the texel side), and its n - 1 passes end on one RGBA texel whose
// 4 channels the CPU combined after reading it back; the pass we add (n in all) does that on the GPU.
uint32_t extreme_pass_count(uint32_t n);
// "64x64 -> 32x32 texels" / "400 -> 100 quads" / "1 texel -> S[8]": what a pass reads and writes.
std::string describe_pass(const ExtremePass& p, Layout layout);

// The CPU reference: the max (min) of the n values.
float extreme_cpu(Extreme e, const std::vector<float>& x);
// The thesis's zero padding as a CPU twin: its passes reduce 4^extreme_pass_count(n) values
// (a whole texture), the values beyond n zeros; the max of an all-negative vector becomes 0.
float extreme_zero_padded_cpu(Extreme e, const std::vector<float>& x);

}  // namespace linalg
