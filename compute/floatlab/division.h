// Da Graça 2006 (§3.3) read its GPUs' division error as "the product of the dividend and the
// rounded reciprocal of the divisor". Asked of this GPU bit for bit: a / b against a * (1 / b),
// both on the GPU (the reciprocal and the product in separate dispatches, so no compiler can merge
// them back into a division), over Vulkan's domain for a / b (|b| in [2^-126, 2^126]) and with
// quotients that are normal floats; beside the share of quotients correctly rounded.
#pragma once
#include "compute/floatlab/probes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace floatlab {

struct DivisionReading {
  uint64_t count = 0;              // pairs measured: |b| in Vulkan's domain, the exact quotient a normal float
  uint64_t skipped = 0;            // pairs left out: the exact quotient not a normal float
  uint64_t as_rcp_product = 0;     // a / b == a * (1 / b), bit for bit
  uint64_t correctly_rounded = 0;  // a / b == the exact quotient rounded to nearest
  uint64_t product_correct = 0;    // a * (1 / b) == the exact quotient rounded to nearest
  std::string reading;             // what the counts say
};

// The reading of what the GPU returned: quotient[i] = a[i] / b[i], product[i] = a[i] * (1 / b[i]),
// as bit patterns; the reference quotient is the CPU's (double, then rounded to float: exact
// for a quotient of floats).
DivisionReading read_division(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                              const std::vector<uint32_t>& quotient, const std::vector<uint32_t>& product);

// `count` random pairs, |b| in [2^-126, 2^126], a of any sign with a / b within [2^-100, 2^100].
DivisionReading division_reading(Probes& probes, uint32_t count, uint32_t seed = 1);

}  // namespace floatlab
