// What the machining tests share.
#pragma once
#include "compute/machining/zbuffer.h"

#include <vector>

// A machine's heights in the precision R: float (rounded from double in f64 mode) or double.
template <class R>
std::vector<R> heights_of(const machining::Machine& m) {
  if constexpr (sizeof(R) == 8)
    return m.heights64();
  else
    return m.heights();
}

// A whole path milled by engine e with the given atomicity and brin-triangle test, in
// submissions of `pairs` (triangle, position) pairs; the heights in the precision R.
template <class R>
std::vector<R> mill_with(gpu::Context& ctx, machining::Engine e, machining::Atomic a, machining::HitTest test,
                         const machining::Stock& s, const machining::Mesh& tool,
                         const std::vector<machining::Position>& path, double pairs) {
  machining::Machine m(ctx, s, tool, path);
  m.set_atomic(a);
  m.set_hit_test(test);
  m.run(e, pairs);
  return heights_of<R>(m);
}
