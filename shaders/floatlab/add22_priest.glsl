// Add22 exactly as Da Graça 2006 prints it (theorem 4, after Bailey): seven Add12, each Priest's
// with its swap and check (add12_priest, floatfloat.glsl), and no renormalisation at the end:
// (s, e) is returned as the last two Add12 leave it. Its proof bounds the error by 2^-47 (|ah| +
// |bh|). floatfloat.glsl's add22 is our improved variant (TwoSum, then a renormalising fast
// Add12); the two are measured side by side (compute/floatlab/floatfloat.cpp).
vec2 add22_priest(vec2 a, vec2 b) {
  vec2 t1 = add12_priest(a.x, b.x);     // (t1, err1) = ADD12(ah, bh)
  vec2 e23 = add12_priest(a.y, b.y);    // (err2, err3) = ADD12(al, bl)
  vec2 t2 = add12_priest(t1.y, e23.x);  // (t2, err4) = ADD12(err1, err2)
  vec2 t3 = add12_priest(e23.y, t2.y);  // (t3, err5) = ADD12(err3, err4)
  vec2 u = add12_priest(t2.x, t3.x);    // (err6, u3) = ADD12(t2, t3)
  vec2 s = add12_priest(t1.x, u.x);     // (s, err7) = ADD12(t1, err6)
  vec2 e = add12_priest(u.y, s.y);      // (e, err8) = ADD12(u3, err7)
  return vec2(s.x, e.x);
}
