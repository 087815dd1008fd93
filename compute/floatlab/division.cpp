#include "compute/floatlab/division.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <random>
#include <stdexcept>

namespace floatlab {

DivisionReading read_division(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                              const std::vector<uint32_t>& quotient, const std::vector<uint32_t>& product) {
  const size_t n = a.size();
  if (b.size() != n || quotient.size() != n || product.size() != n)
    throw std::invalid_argument("read_division: a, b, quotients and products must have one length");
  DivisionReading r;
  for (size_t i = 0; i < n; ++i) {
    const double exact = double(std::bit_cast<float>(a[i])) / double(std::bit_cast<float>(b[i]));
    if (!(std::fabs(exact) >= double(FLT_MIN) && std::fabs(exact) <= double(FLT_MAX))) {
      ++r.skipped;
      continue;
    }
    const uint32_t rounded = std::bit_cast<uint32_t>(float(exact));
    ++r.count;
    r.as_rcp_product += quotient[i] == product[i];
    r.correctly_rounded += quotient[i] == rounded;
    r.product_correct += product[i] == rounded;
  }
  auto pct = [&](uint64_t k) { return r.count ? 100.0 * double(k) / double(r.count) : 0.0; };
  char buf[200];
  if (r.count == 0)
    r.reading = "no pair measured";
  else if (r.as_rcp_product == r.count && r.correctly_rounded == r.count)
    r.reading = "correctly rounded, and a * (1/b) happened to be too on every pair: the two cannot be told apart";
  else if (r.as_rcp_product == r.count)
    r.reading = "a * (1/b), bit for bit: the report's reading holds";
  else if (r.correctly_rounded == r.count)
    r.reading = "correctly rounded: not a * (1/b), which differs on some pairs";
  else {
    std::snprintf(buf, sizeof buf, "neither: %.4g%% as a * (1/b), %.4g%% correctly rounded", pct(r.as_rcp_product),
                  pct(r.correctly_rounded));
    r.reading = buf;
  }
  return r;
}

DivisionReading division_reading(Probes& probes, uint32_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  std::vector<uint32_t> a(count), b(count), zero(count, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const int eb = int(rng() % 253) - 126;                              // |b| in [2^-126, 2^126]
    const int ea = std::clamp(eb + int(rng() % 201) - 100, -126, 127);  // the quotient within 2^+-100 or so
    float fb = eb == 126 ? 0x1p126f : std::ldexp(m(rng), eb), fa = std::ldexp(m(rng), ea);
    a[i] = std::bit_cast<uint32_t>(rng() % 2 ? -fa : fa), b[i] = std::bit_cast<uint32_t>(rng() % 2 ? -fb : fb);
  }
  auto quotient = probes.run(Op::Div, a, b, zero);
  auto reciprocal = probes.run(Op::Rcp, b, zero, zero);  // 1 / b, then a * that in another dispatch
  auto product = probes.run(Op::Mul, a, reciprocal, zero);
  return read_division(a, b, quotient, product);
}

}  // namespace floatlab
