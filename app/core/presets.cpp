#include "app/core/presets.h"

#include "app/core/assets.h"
#include "app/core/lab.h"
#include "compute/io/input.h"
#include "compute/io/png_text.h"
#include "compute/io/preset.h"

#include <algorithm>

namespace {

Preset parse(const std::string& text, const std::string& name) {
  io::PresetFile f;
  try {
    f = io::parse_preset(text, name);
  } catch (const std::runtime_error& e) {
    throw ParamError(e.what());
  }
  if (std::find(lab_names().begin(), lab_names().end(), f.lab) == lab_names().end())
    throw ParamError("preset " + name + ": unknown lab '" + f.lab + "'");
  return {f.lab, name, f.what, f.params};
}

// The shipped presets: assets/<lab>/presets/*.json, named "<lab>/<file stem>".
std::vector<Preset> load_shipped() {
  std::vector<Preset> out;
  for (auto& lab : lab_names()) {
    std::filesystem::path dir;
    try {
      dir = find_asset(lab + "/presets");
    } catch (const std::exception&) {
      continue;  // a lab without presets, or an installation without them
    }
    std::vector<std::filesystem::path> files;
    for (auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      Preset p = parse(io::read_input(f), lab + "/" + f.stem().string());
      if (p.lab != lab) throw ParamError("preset " + f.string() + " is for lab '" + p.lab + "'");
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::string value_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) {
    char b[32];
    std::snprintf(b, sizeof b, "%.17g", v.get<double>());
    return b;
  }
  throw ParamError("is not a number, a boolean or a string");
}

}  // namespace

const std::vector<Preset>& shipped_presets() {
  static const std::vector<Preset> presets = load_shipped();
  return presets;
}

Preset find_preset(const std::string& file_or_name) {
  std::filesystem::path path(file_or_name);
  if (std::filesystem::exists(path) && !std::filesystem::is_directory(path)) {
    std::string bytes = io::read_input(path);
    if (bytes.compare(0, 4, "\x89PNG") == 0) {  // a capture: its manifest
      try {
        bytes = io::read_png_text(bytes, "vklab", path.string());
      } catch (const std::runtime_error& e) {
        throw ParamError(e.what());
      }
      if (bytes.empty()) throw ParamError(path.string() + ": a PNG without vklab's manifest (not a vklab capture)");
    }
    return parse(bytes, path.string());
  }
  std::vector<const Preset*> matches;
  for (auto& p : shipped_presets())
    if (p.name == file_or_name || p.name.substr(p.name.find('/') + 1) == file_or_name) matches.push_back(&p);
  if (matches.size() == 1) return *matches[0];
  if (matches.size() > 1) {
    std::string names;
    for (auto* m : matches) names += (names.empty() ? "" : ", ") + m->name;
    throw ParamError("preset '" + file_or_name + "' is ambiguous: " + names);
  }
  throw ParamError("no preset file or shipped preset '" + file_or_name + "' (see vklab --list-presets)");
}

// A shipped preset names its files as "assets/...": found wherever the assets are.
std::string resolve_file(const std::string& value) {
  if (value.rfind("assets/", 0) != 0 || std::filesystem::exists(value)) return value;
  try {
    return find_asset(value.substr(7)).string();
  } catch (const std::exception&) {
    return value;  // the parameter's own check names the missing file
  }
}

void apply_preset(const Preset& p, ParamSet& set) {
  ParamSet copy = set;
  for (auto& [name, value] : p.params.items()) {
    try {
      std::string text = value_text(value);
      for (auto& param : copy.all())
        if (param.name == name && !param.file_types.empty()) text = resolve_file(text);
      copy.set(name, text);
    } catch (const std::exception& e) {
      throw ParamError("preset " + p.name + ": " + e.what());
    }
  }
  set = copy;
}

ParamSet preset_params(const Preset& p) {
  auto lab = make_lab(p.lab);
  apply_preset(p, lab->params());
  return lab->params();
}

nlohmann::json preset_json(const std::string& lab, const ParamSet& set, const std::string& what) {
  nlohmann::json j = {{"lab", lab}, {"params", set.to_json()}};
  if (!what.empty()) j["what"] = what;
  return j;
}
