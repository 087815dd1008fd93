// Float-float arithmetic (seed 002, ch. 4): a value is the unevaluated sum hi + lo of two
// floats with |lo| <= ulp(hi)/2. Every error-free transformation is written with `precise`
// temporaries: SPIR-V NoContraction forbids the compiler to fuse or reassociate them (the
// seed saw (a + b) - a rewritten to b), and tests check the decoration is in the binary.

// Add12 (Knuth's TwoSum, no branch): s + e = a + b exactly, s = fl(a + b).
vec2 add12(float a, float b) {
  precise float s = a + b;
  precise float bb = s - a;
  precise float e = (a - (s - bb)) + (b - bb);
  return vec2(s, e);
}

// Add12 as the seed prints it (theorem 1, after Priest): for faithful arithmetic, so with a
// swap and a check, two branches (its line 12 read as "if (e + d != f)").
vec2 add12_priest(float a, float b) {
  if (abs(b) >= abs(a)) {
    float t = a;
    a = b;
    b = t;
  }
  precise float s = a + b;
  precise float d = s - a;
  precise float g = s - d;
  precise float h = g - a;
  precise float f = b - h;
  precise float e = f - d;
  precise float check = e + d;
  if (check != f) return vec2(a, b);
  return vec2(s, e);
}

// Fast TwoSum, valid when |a| >= |b|.
vec2 fast_add12(float a, float b) {
  precise float s = a + b;
  precise float e = b - (s - a);
  return vec2(s, e);
}

// Dekker's split: a = hi + lo, each half fits in 12 bits (2^12 + 1 = 4097).
vec2 split(float a) {
  precise float c = 4097.0 * a;
  precise float big = c - a;
  precise float hi = c - big;
  precise float lo = a - hi;
  return vec2(hi, lo);
}

// Mul12 (Dekker): p + e = a * b exactly, p = fl(a * b), with no fused operation.
vec2 mul12(float a, float b) {
  precise float p = a * b;
  vec2 x = split(a), y = split(b);
  precise float e = (((x.x * y.x - p) + x.x * y.y) + x.y * y.x) + x.y * y.y;
  return vec2(p, e);
}

// Mul12 with fma: exact where the device's fma is fused (the float probes tell).
vec2 mul12_fma(float a, float b) {
  precise float p = a * b;
  precise float e = fma(a, b, -p);
  return vec2(p, e);
}

// Add22, improved: the seven Add12 of Da Graça 2006's theorem 4 as TwoSum, then a renormalising
// fast Add12 (the report's own, as printed, is shaders/floatlab/add22_priest.glsl).
vec2 add22(vec2 a, vec2 b) {
  vec2 t1 = add12(a.x, b.x);  // t1, err1
  vec2 t2 = add12(a.y, b.y);  // err2, err3
  vec2 t3 = add12(t1.y, t2.x);  // t2, err4
  vec2 t4 = add12(t2.y, t3.y);  // t3, err5
  vec2 t5 = add12(t3.x, t4.x);  // err6, u3
  vec2 t6 = add12(t1.x, t5.x);  // s, err7
  vec2 t7 = add12(t5.y, t6.y);  // e, err8
  return fast_add12(t6.x, t7.x);
}

// Mul22 (theorem 5): Mul12 of the high parts plus the cross products, 44 correct bits.
vec2 mul22(vec2 a, vec2 b) {
  vec2 t = mul12(a.x, b.x);
  precise float t3 = ((a.x * b.y) + (a.y * b.x)) + t.y;
  return fast_add12(t.x, t3);
}

// Division: q1 = a.hi / b.hi, then one correction from the float-float remainder.
vec2 div22(vec2 a, vec2 b) {
  precise float q1 = a.x / b.x;
  vec2 p = mul22(b, vec2(q1, 0.0));
  vec2 r = add22(a, -p);
  precise float q2 = r.x / b.x;
  return fast_add12(q1, q2);
}

// Square root: x = sqrt(a.hi), then one Newton correction in float-float.
vec2 sqrt22(vec2 a) {
  if (a.x <= 0.0) return vec2(a.x == 0.0 ? 0.0 : uintBitsToFloat(0x7fc00000u), 0.0);
  precise float x = sqrt(a.x);
  vec2 p = mul12(x, x);
  precise float r = (((a.x - p.x) - p.y) + a.y) / (2.0 * x);
  return fast_add12(x, r);
}
