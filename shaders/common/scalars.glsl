// GPU-resident scalars (dot products, CG's rho, alpha, beta) so no iteration reads back.
// S[0..15] are slots; S[16 + i] is a history (CG's residual per iteration).
#define HISTORY_BASE 16u
#define NO_SLOT 0xffffffffu
// Define SCALARS_BINDING before including this file.
layout(std430, binding = SCALARS_BINDING) buffer Scalars_block { float S[]; };

// c · S[num] / S[den], where a slot of NO_SLOT counts as 1. A zero denominator gives 0: once CG has converged to an exact zero residual, its
// updates become no-ops instead of NaN.
float coef(float c, uint num, uint den) {
  float d = 1.0;
  if (den != NO_SLOT) d = S[den];  // branches, not selects: NO_SLOT must never be read
  if (d == 0.0) return 0.0;
  if (num != NO_SLOT) c *= S[num];
  return c / d;
}
