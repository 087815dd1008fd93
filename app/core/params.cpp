#include "app/core/params.h"

#include <algorithm>
#include <cmath>
#include <sstream>

std::string Param::text() const {
  switch (kind) {
    case Kind::Float: {
      std::ostringstream s;
      s << value;
      return s.str();
    }
    case Kind::Int:
      return std::to_string(int64_t(value));
    case Kind::Choice:
      return choices.at(size_t(value));
    case Kind::Bool:
      return value != 0 ? "true" : "false";
    case Kind::Text:
      return str;
  }
  return "";
}

std::string param_label(const Param& p) {
  std::string l = p.label.empty() ? p.name : p.label;
  return p.unit.empty() ? l : l + " (" + p.unit + ")";
}

size_t ParamSet::add(Param p) {
  p.group = group_;
  params_.push_back(std::move(p));
  return params_.size() - 1;
}

Knob<double> ParamSet::add_float(const std::string& name, double value, double min, double max,
                                 const std::string& help) {
  return {*this, add({name, help, Param::Kind::Float, value, min, max})};
}
Knob<int> ParamSet::add_int(const std::string& name, int value, int min, int max, const std::string& help) {
  return {*this, add({name, help, Param::Kind::Int, double(value), double(min), double(max)})};
}
Knob<std::string> ParamSet::add_choice(const std::string& name, const std::vector<std::string>& choices,
                                       const std::string& value, const std::string& help) {
  auto it = std::find(choices.begin(), choices.end(), value);
  Param p{name, help, Param::Kind::Choice, double(it - choices.begin()), 0, double(choices.size() - 1)};
  p.choices = choices;
  return {*this, add(p)};
}
Knob<bool> ParamSet::add_bool(const std::string& name, bool value, const std::string& help) {
  return {*this, add({name, help, Param::Kind::Bool, value ? 1.0 : 0.0, 0, 1})};
}

Knob<std::string> ParamSet::add_text(const std::string& name, const std::string& value, const std::string& help) {
  Param p{name, help, Param::Kind::Text, 0, 0, 0};
  p.str = value;
  return {*this, add(p)};
}

void ParamSet::group(const std::string& name) {
  if (name != group_ && std::any_of(params_.begin(), params_.end(), [&](const Param& p) { return p.group == name; }))
    throw std::logic_error("parameter group '" + name +
                           "' was declared already: declare a group's parameters together");
  group_ = name;
}

void ParamSet::set_text(const std::string& name, const std::string& value) {
  Param& p = find(name);
  if (p.kind != Param::Kind::Text) throw ParamError(name + " is not a text parameter");
  if (value != p.str && p.rebuild) rebuild_pending = true;
  p.str = value;
}

const Param& ParamSet::find(const std::string& name) const {
  for (auto& p : params_)
    if (p.name == name) return p;
  std::string known;
  for (auto& p : params_) known += (known.empty() ? "" : ", ") + p.name;
  throw ParamError("unknown parameter '" + name + "' (known: " + known + ")");
}
Param& ParamSet::find(const std::string& name) {
  return const_cast<Param&>(static_cast<const ParamSet*>(this)->find(name));
}

const std::string& ParamSet::choice(const std::string& name) const {
  auto& p = find(name);
  return p.choices.at(size_t(p.value));
}

void ParamSet::set(const std::string& name, const std::string& text) {
  Param& p = find(name);
  double v = 0;
  auto bad = [&](const std::string& why) { return ParamError("bad value '" + text + "' for " + name + ": " + why); };
  switch (p.kind) {
    case Param::Kind::Text:
      return set_text(name, text);
    case Param::Kind::Choice: {
      // A choice with spaces ("table 3.1") is also typed with '-' for them (picture=table-3.1).
      auto typed = [](std::string c) {
        std::replace(c.begin(), c.end(), ' ', '-');
        return c;
      };
      auto it = std::find(p.choices.begin(), p.choices.end(), text);
      if (it == p.choices.end())
        it = std::find_if(p.choices.begin(), p.choices.end(), [&](auto& c) { return typed(c) == typed(text); });
      if (it == p.choices.end()) {
        std::string list;
        for (auto& c : p.choices) list += (list.empty() ? "" : "|") + c;
        throw bad("expected " + list);
      }
      v = double(it - p.choices.begin());
      break;
    }
    case Param::Kind::Bool:
      if (text == "true" || text == "1" || text == "on")
        v = 1;
      else if (text == "false" || text == "0" || text == "off")
        v = 0;
      else
        throw bad("expected true or false");
      break;
    default: {
      size_t used = 0;
      try {
        v = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || text.empty() || !std::isfinite(v)) throw bad("not a number");
      if (p.kind == Param::Kind::Int && v != std::floor(v)) throw bad("expected an integer");
      if (v < p.min || v > p.max) {
        std::ostringstream s;
        s << "outside [" << p.min << ", " << p.max << "]";
        throw bad(s.str());
      }
    }
  }
  if (v != p.value && p.rebuild) rebuild_pending = true;
  p.value = v;
}

void ParamSet::set_assignment(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw ParamError("expected name=value, got '" + assignment + "'");
  set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

void ParamSet::set_value(const std::string& name, double value) {
  Param& p = find(name);
  value = std::clamp(value, p.min, p.max);
  if (p.kind != Param::Kind::Float) value = std::round(value);
  if (value != p.value && p.rebuild) rebuild_pending = true;
  p.value = value;
}

nlohmann::json ParamSet::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (auto& p : params_) {
    switch (p.kind) {
      case Param::Kind::Float:
        j[p.name] = p.value;
        break;
      case Param::Kind::Int:
        j[p.name] = int64_t(p.value);
        break;
      case Param::Kind::Choice:
        j[p.name] = p.text();
        break;
      case Param::Kind::Bool:
        j[p.name] = p.value != 0;
        break;
      case Param::Kind::Text:
        j[p.name] = p.str;
        break;
    }
  }
  return j;
}

// Each group under its name, in the order declared (group() keeps a group's parameters together).
std::string ParamSet::describe() const {
  std::ostringstream s;
  const std::string* group = nullptr;
  for (auto& p : params_) {
    if (!group || p.group != *group) s << "  " << p.group << ":\n";
    group = &p.group;
    s << "    " << p.name << " = " << p.text();
    if (p.kind == Param::Kind::Choice) {
      s << "  (";
      for (size_t i = 0; i < p.choices.size(); ++i) s << (i ? "|" : "") << p.choices[i];
      s << ")";
    } else if (p.kind != Param::Kind::Bool && p.kind != Param::Kind::Text) {
      s << "  [" << p.min << ", " << p.max << "]";
    }
    if (!p.unit.empty()) s << " " << p.unit;
    s << "  " << p.help << "\n";
  }
  return s.str();
}
