// The labs vklab knows, in the window's order (key N opens the N-th), without their code:
// what the command line, presets, keys and help need to know about a lab. No Vulkan here.
#pragma once
#include <memory>
#include <string>
#include <vector>

class Lab;
struct Options;

// A lab's registration: `LabEntry <name>_lab()` in app/labs/<name>/, listed once in VKLAB_LABS
// (the top CMakeLists.txt), which generates the registry (app/core/registry.cpp). It says how to
// make the lab, its command-line shorthands and its own commands. Its parameters and bench are
// in the Lab itself, its presets and help page in assets/<name>/, its math in compute/<name>/,
// its picture in render/<name>/.
struct Shorthand {
  std::string flag, param, value;  // `flag VALUE` means `--set param=VALUE`; value: what VALUE is
};
// `vklab <lab> <flag> [usage]`: a command of the lab's own (a report, for example).
struct LabVerb {
  std::string flag, usage, what;
  int (*run)(const Options&);  // the exit code
};
struct LabEntry {
  std::unique_ptr<Lab> (*make)();
  std::vector<Shorthand> shorthands;
  std::vector<LabVerb> verbs;
};
const std::vector<LabEntry>& lab_entries();   // in the window's order
const std::vector<std::string>& lab_names();  // the first is the window's starting lab
// Throws ParamError for an unknown name. The lab holds only its parameters until build().
std::unique_ptr<Lab> make_lab(const std::string& name);
