// The arithmetic roof: every invocation runs 8 independent chains of vec4 multiply-adds
// (v = fma(v, m, c)), enough work in flight to fill the ALUs; one value per invocation is
// written so nothing is optimised away; `iterations` a multiple of 4. REAL / REAL4: float or double (fma_peak_f32 / _f64).
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Out { REAL result[]; };
#define PUSH_PeakPush
#include "gpu_push.h"

void main() {
  uint id = gl_GlobalInvocationID.x;
  REAL start = REAL(id % 1024u) * REAL(1e-3);
  REAL4 v[8];
  for (int k = 0; k < 8; ++k) v[k] = REAL4(start) + REAL4(0.0, 0.01, 0.02, 0.03) + REAL(k) * REAL(0.1);
  REAL4 mm = REAL4(REAL(m)), cc = REAL4(REAL(c));
  // Four steps a trip (iterations is a multiple of 4): the loop's own instructions stay few
  // beside the 128 multiply-adds, so the issue slots go to the arithmetic.
  for (uint i = 0; i < iterations; i += 4u)
    for (int u = 0; u < 4; ++u)
      for (int k = 0; k < 8; ++k) v[k] = fma(v[k], mm, cc);
  REAL4 s = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  result[id] = (s.x + s.y) + (s.z + s.w);
}
