// Order-preserving float <-> uint (seed 003, §15.1): negative floats have all bits
// flipped, positive ones the sign bit set, so unsigned order is float order and an
// atomicMin on the keys is a float minimum.
uint height_key(float h) {
  uint b = floatBitsToUint(h);
  return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}
float key_height(uint k) { return uintBitsToFloat((k & 0x80000000u) != 0u ? k & 0x7fffffffu : ~k); }

#if HEIGHTS64
// The same on doubles.
uint64_t height_key(double h) {
  uint64_t b = doubleBitsToUint64(h);
  return (b & 0x8000000000000000ul) != 0ul ? ~b : b | 0x8000000000000000ul;
}
double key_height(uint64_t k) {
  return uint64BitsToDouble((k & 0x8000000000000000ul) != 0ul ? k & 0x7ffffffffffffffful : ~k);
}
#endif
