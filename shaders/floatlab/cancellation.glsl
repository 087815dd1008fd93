// Abecassis 2012, SIMSURF §14.2.2 and §14.5.1, in the precision REAL (float or double): this
// file is included once with each, and GLSL tells the two sets apart by their argument types.
// Every step is `precise`: no fused multiply-add, no reassociation, so the rounding is the
// one the formula asks for. sin and cos are their Taylor series (ours), not the built-ins:
// Vulkan lets a built-in sin or cos be off by 2^-11 absolute, which would hide the lesson;
// 12 terms are below an ulp of double for |x| <= 1.

REAL cos_series(REAL x) {  // 1 - x^2/(1*2) (1 - x^2/(3*4) (1 - ...))
  precise REAL x2 = x * x;
  precise REAL c = REAL(1);
  for (int k = 12; k >= 1; --k) c = REAL(1) - x2 * c / REAL((2 * k - 1) * (2 * k));
  return c;
}

REAL sin_series(REAL x) {  // x (1 - x^2/(2*3) (1 - x^2/(4*5) (1 - ...)))
  precise REAL x2 = x * x;
  precise REAL s = REAL(1);
  for (int k = 12; k >= 1; --k) s = REAL(1) - x2 * s / REAL((2 * k) * (2 * k + 1));
  precise REAL r = x * s;
  return r;
}

// Example 1: the roots of a x^2 + b x + c = 0 (b > 0). out_: sqrt(b^2 - 4ac), the large root
// x1 = (-b - sqrt) / 2a, the small root by the textbook formula (-b + sqrt) / 2a, and the
// small root as c / (a x1) = -2c / (b + sqrt): no subtraction of close values.
void quadratic_roots(REAL a, REAL b, REAL c, out REAL root, out REAL x1, out REAL naive, out REAL stable) {
  precise REAL d = b * b - REAL(4) * a * c;
  precise REAL s = sqrt(d);
  precise REAL big = (-b - s) / (REAL(2) * a);
  precise REAL small_naive = (-b + s) / (REAL(2) * a);
  precise REAL small_stable = c / (a * big);
  root = s, x1 = big, naive = small_naive, stable = small_stable;
}

// Example 2: f(x) = (1 - cos x) / x^2, as written, and with 1 - cos x = 2 sin^2(x / 2).
REAL one_minus_cos_naive(REAL x) {
  precise REAL r = (REAL(1) - cos_series(x)) / (x * x);
  return r;
}
REAL one_minus_cos_stable(REAL x) {
  precise REAL s = sin_series(x / REAL(2));
  precise REAL r = REAL(2) * s * s / (x * x);
  return r;
}
