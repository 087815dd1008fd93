// Abecassis 2012, SIMSURF §14.2.2: a float's ULP from its bits, ULP(x) = eps * 2^e (eq. 14.2)
// with eps = 2^-23 and e the unbiased exponent: the weight of the mantissa's last bit.
// Writes rn's bits, ULP(rn)'s bits and the bits of the float sum rn + ULP(rn) at out_[3 row].
float ulp_of(float rn) {
  uint e = (floatBitsToUint(rn) >> 23) & 0xffu;  // biased exponent
  if (e > 23u) return uintBitsToFloat((e - 23u) << 23);  // 2^(e - 127 - 23), a normal float
  return uintBitsToFloat(e == 0u ? 1u : 1u << (e - 1u));  // 2^-149 .. 2^-127: a denormal ulp
}

void ulp_row(uint row, float rn) {
  precise float next = rn + ulp_of(rn);
  TABLE[3u * row] = floatBitsToUint(rn);
  TABLE[3u * row + 1u] = floatBitsToUint(ulp_of(rn));
  TABLE[3u * row + 2u] = floatBitsToUint(next);
}
