// A lab's knobs: typed, ranged parameters that the CLI (--set name=value), the ImGui
// panel and the --dump JSON all read from one list. A lab declares each knob once and keeps
// the handle that declaring returns (Knob<T>, Choice<E>), so that a misspelt name or choice
// does not compile; the command line, presets, dumps and --help reach the same parameters by
// name, as text.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
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
  std::vector<std::string> file_types;  // Text: a file of these types (".npy", or "*"; empty: not a file)
  bool rebuild = false;                 // changing it reallocates the lab's GPU state
  bool log_scale = false;               // slider on a log scale
  std::string label;                    // what the panel shows ("Time step"); empty: the name
  std::string unit;                     // shown after the label ("cells/s"); empty: none
  std::string group;                    // the panel's collapsing header it sits under
  std::string text() const;             // the value as --set would take it
  // p.labelled("Time step", "s"): the panel's words for a parameter.
  Param& labelled(const std::string& l, const std::string& u = "") {
    label = l, unit = u;
    return *this;
  }
};

// "Time step (s)", or the name where no label was given.
std::string param_label(const Param& p);

class ParamSet;

// A number a knob may be read as: a Float or Int parameter kept as Knob<double>, Knob<float>,
// Knob<uint32_t> ...
template <class T>
concept KnobNumber = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
// What a Choice reads as.
template <class E>
concept KnobEnum = std::is_enum_v<E>;

// What every handle holds: the owning set's address and the parameter's index in it, not a
// pointer into its list, so that the handle stays valid when the set is assigned a copy of
// itself (a preset applied, the window's edited values). The declaring chain
// (`.labelled(...).rebuilds()`) returns the handle itself, `Self`, to be kept as a member.
template <class Self>
class ParamHandle {
 public:
  Param& param() const;
  const std::string& name() const { return param().name; }
  // The value as --set takes it ("gauss-seidel", "0.25").
  std::string text() const { return param().text(); }
  Self labelled(const std::string& label, const std::string& unit = "") const {
    param().labelled(label, unit);
    return self();
  }
  // Changing it reallocates the lab's GPU state (Param::rebuild).
  Self rebuilds() const {
    param().rebuild = true;
    return self();
  }
  // Its slider is on a log scale.
  Self log_scaled() const {
    param().log_scale = true;
    return self();
  }
  // A text knob that names a file of these types (".npy", or "*" for any): the panel offers a chooser.
  Self files(std::vector<std::string> types) const {
    param().file_types = std::move(types);
    return self();
  }

 protected:
  ParamHandle() = default;
  ParamHandle(ParamSet& set, size_t index) : set_(&set), index_(index) {}
  ParamSet* set_ = nullptr;
  size_t index_ = 0;

 private:
  const Self& self() const { return static_cast<const Self&>(*this); }
};

// A knob read as T: a number (KnobNumber) for a Float or Int parameter, bool for a flag,
// std::string for text, a file, or a choice whose list is made at run time (colour maps).
template <class T>
class Knob : public ParamHandle<Knob<T>> {
  static_assert(KnobNumber<T> || std::is_same_v<T, bool> || std::is_same_v<T, std::string>);

 public:
  Knob() = default;
  Knob(ParamSet& set, size_t index);  // throws std::logic_error where T does not fit the parameter
  // The same number read as another type, e.g. an Int parameter kept as Knob<uint32_t>.
  template <KnobNumber U>
  Knob(const Knob<U>& other) : Knob(other.owner(), other.index()) {
    static_assert(KnobNumber<T>, "only a number reads as another number type");
  }

  T get() const;
  T operator*() const { return get(); }
  // As the panel sets it: a number clamped into its range (and rebuild_pending raised where it rebuilds).
  void set(const T& value) const;

  ParamSet& owner() const { return *this->set_; }
  size_t index() const { return this->index_; }
};

// A choice read as an enum: declared once with each value's text, read as the enum (a switch
// over it then warns when a value is missing), set by --set as the text.
template <KnobEnum E>
class Choice : public ParamHandle<Choice<E>> {
 public:
  Choice() = default;
  Choice(ParamSet& set, size_t index, std::vector<E> values)
      : ParamHandle<Choice<E>>(set, index), values_(std::move(values)) {}

  E get() const { return values_.at(size_t(this->param().value)); }
  E operator*() const { return get(); }
  void set(E value) const;

 private:
  std::vector<E> values_;  // the enum value of each choice, in the order of the text's list
};

// The choices of an enum that compute names ("cpu", "fine", ...): {from_name(n), n} for each name.
template <class E>
std::vector<std::pair<E, std::string>> named_choices(const std::vector<std::string>& names,
                                                     E (*from_name)(const std::string&)) {
  std::vector<std::pair<E, std::string>> out;
  for (auto& n : names) out.push_back({from_name(n), n});
  return out;
}

class ParamSet {
 public:
  Knob<double> add_float(const std::string& name, double value, double min, double max, const std::string& help);
  Knob<int> add_int(const std::string& name, int value, int min, int max, const std::string& help);
  Knob<bool> add_bool(const std::string& name, bool value, const std::string& help);
  Knob<std::string> add_text(const std::string& name, const std::string& value, const std::string& help);
  // A choice among texts made at run time (colour maps, a library's examples), read as its text.
  Knob<std::string> add_choice(const std::string& name, const std::vector<std::string>& choices,
                               const std::string& value, const std::string& help);
  // A choice read as an enum: add_choice("view", {{View::Top, "top"}, {View::Surface, "surface"}}, View::Top, ...).
  template <KnobEnum E>
  Choice<E> add_choice(const std::string& name, const std::vector<std::pair<E, std::string>>& choices, E value,
                       const std::string& help);
  // The parameters added after this call sit under `name` in the panel ("Grid", "Solver", ...).
  // A group is declared in one run: naming again a group that another has followed throws
  // std::logic_error, so that the panel and --help show each group once, whole.
  void group(const std::string& name);
  void set_text(const std::string& name, const std::string& value);

  // By name, for the shell and the tests (sweeps, checks of a preset); labs read their handles.
  double get(const std::string& name) const { return find(name).value; }
  int get_int(const std::string& name) const { return int(find(name).value); }
  const std::string& choice(const std::string& name) const;

  // Parses and checks `text`; throws ParamError naming the parameter and its range.
  void set(const std::string& name, const std::string& text);
  // "name=value"
  void set_assignment(const std::string& assignment);
  void set_value(const std::string& name, double value);  // clamps into range (UI)

  std::vector<Param>& all() { return params_; }
  const std::vector<Param>& all() const { return params_; }
  nlohmann::json to_json() const;
  std::string describe() const;  // one line a parameter, for --help

  // Set when a `rebuild` parameter changed; the owner rebuilds and clears it.
  bool rebuild_pending = false;

 private:
  size_t add(Param p);  // returns its index
  const Param& find(const std::string& name) const;
  Param& find(const std::string& name);
  std::vector<Param> params_;
  std::string group_ = "Parameters";
};

template <class Self>
Param& ParamHandle<Self>::param() const {
  return set_->all()[index_];
}

template <class T>
Knob<T>::Knob(ParamSet& set, size_t index) : ParamHandle<Knob<T>>(set, index) {
  using K = Param::Kind;
  K kind = this->param().kind;
  bool fits = false;
  if constexpr (std::is_same_v<T, bool>)
    fits = kind == K::Bool;
  else if constexpr (std::is_same_v<T, std::string>)
    fits = kind == K::Text || kind == K::Choice;
  else
    fits = kind == K::Float || kind == K::Int;
  if (!fits) throw std::logic_error("parameter '" + this->name() + "' cannot be read as this knob's type");
}

template <class T>
T Knob<T>::get() const {
  const Param& p = this->param();
  if constexpr (std::is_same_v<T, bool>)
    return p.value != 0;
  else if constexpr (std::is_same_v<T, std::string>)
    return p.text();
  else
    return T(p.value);
}

template <class T>
void Knob<T>::set(const T& value) const {
  if constexpr (std::is_same_v<T, bool>)
    owner().set_value(this->name(), value ? 1 : 0);
  else if constexpr (std::is_same_v<T, std::string>)
    owner().set(this->name(), value);
  else
    owner().set_value(this->name(), double(value));
}

template <KnobEnum E>
void Choice<E>::set(E value) const {
  auto it = std::find(values_.begin(), values_.end(), value);
  if (it == values_.end()) throw std::logic_error("choice '" + this->name() + "' has no such value");
  this->set_->set_value(this->name(), double(it - values_.begin()));
}

template <KnobEnum E>
Choice<E> ParamSet::add_choice(const std::string& name, const std::vector<std::pair<E, std::string>>& choices, E value,
                               const std::string& help) {
  std::vector<E> values;
  std::vector<std::string> texts;
  for (auto& [v, text] : choices) values.push_back(v), texts.push_back(text);
  auto at = std::find(values.begin(), values.end(), value);
  if (at == values.end()) throw std::logic_error("choice '" + name + "': its default is not among its values");
  Knob<std::string> declared = add_choice(name, texts, texts[size_t(at - values.begin())], help);
  return {*this, declared.index(), std::move(values)};
}
