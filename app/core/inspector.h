// The buffer inspector: one of a lab's GPU arrays (Lab::inspectables) read back on demand,
// never every frame, and read as a typed table with its minimum, maximum and NaN count.
#pragma once
#include "app/core/lab.h"

#include <string>
#include <vector>

// float, int, uint, vec2, vec4, double, float-float (hi, lo), int8, int16; and the item's own
// key type where it has one (Inspectable::key: 32-bit keys read as the values they encode).
std::vector<std::string> inspector_types(const Inspectable& item);
size_t type_bytes(const std::string& type);  // of a base type; a key is 4

struct Inspection {
  std::string name, type;
  float (*key)(uint32_t) = nullptr;  // `type` is the item's key
  std::vector<uint8_t> bytes;
  uint32_t width = 0;  // a row, for grids
  size_t count = 0;    // elements of the type
  double min = 0, max = 0;
  size_t nans = 0, infs = 0;
  double value(size_t i, int component = 0) const;  // element i (its component, for vec4)
  std::string text(size_t i) const;                 // element i as the table shows it
  // "NAME as TYPE at step S: N values, min A, max B, NaN n, inf m"
  std::string summary(uint64_t step) const;
};

// With the GPU idle: downloads the array and reads it as `type`.
Inspection inspect(const Inspectable& what, const std::string& type);
