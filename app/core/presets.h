// Presets: a lab and some of its parameters, as JSON ({"lab": ..., "what": ..., "params":
// {...}}). The ones vklab ships live in assets/<lab>/presets/<name>.json; a params.json
// written by --dump is one too (it has "lab" and "params"). Loading checks every name and
// value against the lab's parameters and refuses the whole preset, naming what is wrong.
#pragma once
#include "app/core/params.h"

#include <filesystem>
#include <string>
#include <vector>

struct Preset {
  std::string lab;
  std::string name;  // "lab/name" for a shipped one, the file's path otherwise
  std::string what;  // one line: what it shows
  nlohmann::json params = nlohmann::json::object();
};

// The shipped presets, sorted by lab (in the labs' order) then name.
const std::vector<Preset>& shipped_presets();
// A file (a preset or params.json), or a shipped preset by "lab/name" or, if unique, "name".
// Throws ParamError with one line when it is neither or does not parse.
Preset find_preset(const std::string& file_or_name);
// Sets the preset's parameters on `set` (a copy first: on any error nothing changes);
// throws ParamError naming the preset and the parameter.
void apply_preset(const Preset& p, ParamSet& set);
// What loading a preset means, in the window as on the command line: the lab's defaults with
// the preset's values set on them (never the values of a lab already running). Throws as
// apply_preset does.
ParamSet preset_params(const Preset& p);
// The lab's current parameters as a preset file's JSON.
nlohmann::json preset_json(const std::string& lab, const ParamSet& set, const std::string& what = "");
