// What the machining tests share.
#pragma once
#include "machining/zbuffer.h"

#include <vector>

// A machine's heights in the precision R: float (rounded from double in f64 mode) or double.
template <class R>
std::vector<R> heights_of(const machining::Machine& m) {
  if constexpr (sizeof(R) == 8)
    return m.heights64();
  else
    return m.heights();
}
