#include "compute/floatlab/stages.h"

#include <cfloat>
#include <cmath>
#include <random>

namespace floatlab {

bool StageProbe::stages_agree() const {
  for (auto& f : found)
    if (f != found.front()) return false;
  return true;
}

std::vector<StageProbe> stage_probes(FloatMachine& m, const std::vector<Stage>& stages, uint32_t random_pairs,
                                     uint32_t seed) {
  std::vector<StageProbe> rows = {{"TEST 2", "(MAX + MAX) - MAX: extended exponent range?", "+inf", {}},
                                  {"TEST 3", "first i with 1.5 + 2^-i == 1.5 (mantissa bits)", "24", {}},
                                  {"TEST 5", "first i with 1.5 - 2^-i == 1.5 (the first adder)", "24", {}},
                                  {"TEST 6", "first i with (1.5 - 2^-i) - 1.5 == 0 (two adders)", "24", {}},
                                  {"TEST 4", "a * b + (-(a * b) rounded) as a multiply-add: fused?", "0 fused", {}},
                                  {"TEST 9", "A*B = (-A)*(-B) = -(A*(-B)), (-A)*B = A*(-B)", "0 violations", {}},
                                  {"denormals", "2^-126 * 1.5 / 2: kept or flushed", "kept", {}}};
  // the programs, the same for every stage
  std::vector<Program> ps;
  // (a C++ call's arguments run in any order: each register is taken from what returned it)
  Program t2;
  const uint8_t mx = t2.in(FLT_MAX), twice = t2.add(mx, mx), t2_at = t2.sub(twice, mx);
  ps.push_back(t2);
  for (int kind = 0; kind < 3; ++kind)
    for (int i = 1; i <= 40; ++i) {
      Program p;
      uint8_t x = p.in(1.5f), e = p.in(std::ldexp(1.0f, -i));
      if (kind == 0) p.add(x, e);
      if (kind == 1) p.sub(x, e);
      if (kind == 2) p.sub(p.sub(x, e), x);
      ps.push_back(p);
    }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-4, 4);
  std::vector<std::array<float, 2>> pairs(random_pairs);
  for (auto& q : pairs) {
    q = {u(rng), u(rng)};
    Program p;  // registers: a, b, -(a*b) rounded, mad, then TEST 9's five products
    uint8_t a = p.in(q[0]), b = p.in(q[1]), c = p.in(-(q[0] * q[1]));
    p.mad(a, b, c);
    uint8_t na = p.op(VmOp::Neg, a), nb = p.op(VmOp::Neg, b);
    p.mul(a, b);
    p.mul(na, nb);
    p.op(VmOp::Neg, p.mul(a, nb));
    p.mul(na, b);
    p.mul(a, nb);
    ps.push_back(p);
  }
  Program dn;
  const uint8_t lo = dn.in(FLT_MIN), three_halves = dn.in(1.5f), half = dn.in(0.5f);
  const uint8_t dn_at = dn.mul(dn.mul(lo, three_halves), half);
  ps.push_back(dn);
  for (Stage s : stages) {
    auto r = m.run(s, ps);
    size_t k = 0;
    float v2 = r[k++][t2_at];
    rows[0].found.push_back(std::isinf(v2) && v2 > 0 ? "+inf" : std::to_string(v2));
    for (int kind = 0; kind < 3; ++kind) {
      int first = 0;
      for (int i = 1; i <= 40; ++i, ++k) {
        float v = r[k][kind == 2 ? 3 : 2];
        if (!first && (kind == 2 ? v == 0 : v == 1.5f)) first = i;
      }
      rows[1 + kind].found.push_back(first ? std::to_string(first) : "none up to 40");
    }
    uint64_t fused = 0, asym = 0;
    for (uint32_t i = 0; i < random_pairs; ++i, ++k) {
      const auto& q = r[k];
      fused += q[3] != 0;
      // registers 6..12: a*b, (-a)(-b), a*(-b), -(a*(-b)), (-a)*b, a*(-b)
      asym += !(q[6] == q[7] && q[6] == q[9] && q[10] == q[11]);
    }
    rows[4].found.push_back(std::to_string(fused) + " fused");
    rows[5].found.push_back(std::to_string(asym) + " violations");
    rows[6].found.push_back(r[k][dn_at] == 0 ? "flushed" : "kept");
  }
  return rows;
}

}  // namespace floatlab
