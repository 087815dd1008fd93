// A lab's knobs: typed, ranged parameters that the CLI (--set name=value), the ImGui
// panel and the --dump JSON all read from one list.
#pragma once
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

struct ParamError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct Param {
  enum class Kind { Float, Int, Choice, Bool, Text };
  std::string name, help;
  Kind kind = Kind::Float;
  double value = 0, min = 0, max = 1;
  std::vector<std::string> choices;     // Choice: value is the index
  std::string str;                      // Text: the value
  std::vector<std::string> file_types;  // Text: a file of these types (".mesh", or "*"; empty: not a file)
  bool rebuild = false;                 // changing it reallocates the lab's GPU state
  bool log_scale = false;               // slider on a log scale
  std::string label;                    // what the panel shows ("Wave speed"); empty: the name
  std::string unit;                     // shown after the label ("cells/s"); empty: none
  std::string group;                    // the panel's collapsing header it sits under
  std::string text() const;             // the value as --set would take it
  // p.labelled("Wave speed", "cells/s"): the panel's words for a parameter.
  Param& labelled(const std::string& l, const std::string& u = "") {
    label = l, unit = u;
    return *this;
  }
};

// "Wave speed (cells/s)", or the name where no label was given.
std::string param_label(const Param& p);

class ParamSet {
 public:
  Param& add_float(const std::string& name, double value, double min, double max, const std::string& help);
  Param& add_int(const std::string& name, int value, int min, int max, const std::string& help);
  Param& add_choice(const std::string& name, const std::vector<std::string>& choices, const std::string& value,
                    const std::string& help);
  Param& add_bool(const std::string& name, bool value, const std::string& help);
  Param& add_text(const std::string& name, const std::string& value, const std::string& help);
  // The parameters added after this call sit under `name` in the panel ("Grid", "Solver", ...).
  void group(const std::string& name) { group_ = name; }
  const std::string& text(const std::string& name) const { return find(name).str; }
  void set_text(const std::string& name, const std::string& value);

  double get(const std::string& name) const { return find(name).value; }
  int get_int(const std::string& name) const { return int(find(name).value); }
  bool flag(const std::string& name) const { return find(name).value != 0; }
  const std::string& choice(const std::string& name) const;

  // Parses and checks `text`; throws ParamError naming the parameter and its range.
  void set(const std::string& name, const std::string& text);
  // "name=value"
  void set_assignment(const std::string& assignment);
  void set_value(const std::string& name, double value);  // clamps into range (UI)

  std::vector<Param>& all() { return params_; }
  Param& back() { return params_.back(); }
  const std::vector<Param>& all() const { return params_; }
  nlohmann::json to_json() const;
  std::string describe() const;  // one line a parameter, for --help

  // Set when a `rebuild` parameter changed; the owner rebuilds and clears it.
  bool rebuild_pending = false;

 private:
  Param& add(Param p);
  const Param& find(const std::string& name) const;
  Param& find(const std::string& name);
  std::vector<Param> params_;
  std::string group_ = "Parameters";
};
