#include "app/core/inspector.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

std::vector<std::string> inspector_types(const Inspectable& item) {
  std::vector<std::string> types = {"float", "int", "uint", "vec2", "vec4", "double", "float-float", "int8", "int16"};
  if (item.key) types.insert(types.begin() + 3, item.type);
  return types;
}

size_t type_bytes(const std::string& type) {
  if (type == "vec4") return 16;
  if (type == "float-float" || type == "vec2" || type == "double") return 8;
  if (type == "float" || type == "int" || type == "uint") return 4;
  if (type == "int16") return 2;
  if (type == "int8") return 1;
  throw std::invalid_argument("unknown inspector type '" + type + "'");
}

double Inspection::value(size_t i, int component) const {
  const uint8_t* p = bytes.data() + i * (key ? 4 : type_bytes(type));
  if (key || type == "int" || type == "uint") {
    int32_t s;
    uint32_t u;
    std::memcpy(&s, p, 4), std::memcpy(&u, p, 4);
    if (key) return double(key(u));
    return type == "int" ? double(s) : double(u);
  }
  if (type == "int8") return double(int8_t(*p));
  if (type == "int16") {
    int16_t h;
    std::memcpy(&h, p, 2);
    return double(h);
  }
  if (type == "double") {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  float f[4];
  std::memcpy(f, p, type_bytes(type));
  if (type == "float-float") return double(f[0]) + double(f[1]);  // hi + lo
  return double(f[type == "vec4" || type == "vec2" ? component : 0]);
}

std::string Inspection::text(size_t i) const {
  char b[128];
  if (type == "vec4")
    std::snprintf(b, sizeof b, "%.6g  %.6g  %.6g  %.6g", value(i, 0), value(i, 1), value(i, 2), value(i, 3));
  else if (type == "vec2")
    std::snprintf(b, sizeof b, "%.6g  %.6g", value(i, 0), value(i, 1));
  else if (type == "float-float" || type == "double")
    std::snprintf(b, sizeof b, "%.15g", value(i));
  else if (type == "float" || key)
    std::snprintf(b, sizeof b, "%.9g", value(i));
  else
    std::snprintf(b, sizeof b, "%.0f", value(i));
  return b;
}

std::string Inspection::summary(uint64_t step) const {
  char b[160];
  std::snprintf(b, sizeof b, " as %s at step %llu: %zu values, min %.6g, max %.6g, NaN %zu, inf %zu", type.c_str(),
                (unsigned long long)step, count, min, max, nans, infs);
  return name + b;
}

Inspection inspect(const Inspectable& what, const std::string& type) {
  Inspection r;
  r.name = what.name;
  r.type = type;
  if (what.key && type == what.type) r.key = what.key;
  r.bytes = what.data.buffer ? what.data.buffer->download<uint8_t>() : what.data.image->download<uint8_t>();
  size_t per = r.key ? 4 : type_bytes(type);
  r.count = r.bytes.size() / per;
  // A grid's row counts elements of the lab's own type; read as another, it scales with the bytes.
  r.width = what.width ? uint32_t(size_t(what.width) * (what.key ? 4 : type_bytes(what.type)) / per) : 0;
  bool first = true;
  int components = type == "vec4" ? 4 : type == "vec2" ? 2 : 1;
  for (size_t i = 0; i < r.count; ++i)
    for (int c = 0; c < components; ++c) {
      double v = r.value(i, c);
      if (std::isnan(v)) {
        ++r.nans;
      } else if (std::isinf(v)) {
        ++r.infs;
      } else {
        r.min = first ? v : std::min(r.min, v), r.max = first ? v : std::max(r.max, v);
        first = false;
      }
    }
  return r;
}
