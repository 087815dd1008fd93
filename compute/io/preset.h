// A preset file's shape: {"lab": "...", "what": "...", "params": {"name": value, ...}}
// (a --dump's params.json has "lab" and "params" too). Checks the JSON and its shape only;
// the app checks the lab and every parameter (app/core/presets.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace io {

struct PresetFile {
  std::string lab, what;
  nlohmann::json params = nlohmann::json::object();  // values: numbers, booleans or strings
};

// Throws std::runtime_error naming `name` and what is wrong.
PresetFile parse_preset(const std::string& text, const std::string& name);

}  // namespace io
