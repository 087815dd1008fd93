#include "compute/io/preset.h"

#include <stdexcept>

namespace io {

PresetFile parse_preset(const std::string& text, const std::string& name) {
  auto fail = [&](const std::string& why) { return std::runtime_error("preset " + name + ": " + why); };
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw fail("not JSON");
  if (!j.is_object() || !j.contains("lab") || !j["lab"].is_string())
    throw fail("no \"lab\" (a preset is {\"lab\": ..., \"params\": {...}})");
  PresetFile p;
  p.lab = j["lab"].get<std::string>();
  if (j.contains("what") && j["what"].is_string()) p.what = j["what"].get<std::string>();
  if (j.contains("params")) {
    if (!j["params"].is_object()) throw fail("\"params\" is not an object");
    for (auto& [key, value] : j["params"].items())
      if (!value.is_number() && !value.is_boolean() && !value.is_string())
        throw fail("parameter '" + key + "' is not a number, a boolean or a string");
    p.params = j["params"];
  }
  return p;
}

}  // namespace io
