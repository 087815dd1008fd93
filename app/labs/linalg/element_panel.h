// The linear algebra lab's operator[] (Bleton 2005, ch. 5; compute/linalg/vec.h, Vec::set): a vector
// of the lab's size and layout, one element set, its texel's four channels shown before and after
// and the bytes moved beside the whole vector's.
#pragma once
#include "compute/linalg/vec.h"

#include <memory>
#include <string>

class ElementPanel {
 public:
  void draw(gpu::Context& ctx, uint32_t n, linalg::Layout layout);

 private:
  std::unique_ptr<linalg::Vec> v_;
  int index_ = 5;
  float value_ = 42.0f;
  std::string said_;
};
