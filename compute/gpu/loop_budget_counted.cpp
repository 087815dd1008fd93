// Statement ends and counted loops for the loop budget (loop_budget_counted.h).
#include "compute/gpu/loop_budget_counted.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpu::budget {

namespace {

bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}
std::string_view trimmed(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}
std::string_view word_at(std::string_view s, size_t i) {
  size_t e = i;
  while (e < s.size() && word_char(s[e])) ++e;
  if (e == i || std::isdigit(static_cast<unsigned char>(s[i]))) return {};
  return s.substr(i, e - i);
}
bool is_name(std::string_view w) { return !w.empty() && word_at(w, 0).size() == w.size(); }
// An integer literal (decimal or hex, u suffix allowed, a leading minus): its value.
std::optional<long long> integer(std::string_view w) {
  bool minus = !w.empty() && w.front() == '-';
  if (minus) w = trimmed(w.substr(1));
  if (!w.empty() && (w.back() == 'u' || w.back() == 'U')) w.remove_suffix(1);
  if (w.empty() || w.size() > 10) return std::nullopt;
  bool hex = w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X');
  for (size_t i = hex ? 2 : 0; i < w.size(); ++i)
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(w[i])) : std::isdigit(static_cast<unsigned char>(w[i]))))
      return std::nullopt;
  long long v = std::strtoll(std::string(w).c_str(), nullptr, hex ? 16 : 10);
  return minus ? -v : v;
}
// Does `e` hold, outside brackets, an operator that binds looser than '<' (or a comparison)?
bool loose_operator(std::string_view e) {
  int nest = 0;
  for (char c : e) {
    if (c == '(' || c == '[') ++nest;
    if (c == ')' || c == ']') --nest;
    if (nest == 0 && std::string_view("&|^?,=<>!").find(c) != std::string_view::npos) return true;
  }
  return false;
}
// Is `var` written in [b, e): assigned, incremented, or handed to a built-in's out argument?
bool written(std::string_view s, size_t b, size_t e, std::string_view var) {
  static const std::string_view kOut[] = {"modf", "frexp", "uaddCarry", "usubBorrow", "umulExtended", "imulExtended"};
  for (size_t i = b; i < e;) {
    std::string_view w = word_at(s, i);
    if (w.empty()) {
      ++i;
      continue;
    }
    for (auto out : kOut)
      if (w == out) {  // conservatively: any call of these naming var writes it
        size_t open = skip_blanks(s, i + w.size()), close = open < e && s[open] == '(' ? matching(s, open) : open;
        for (size_t j = open; close != std::string_view::npos && j < close && j < e; ++j)
          if (word_at(s, j) == var && (j == 0 || !word_char(s[j - 1]))) return true;
      }
    bool member = i > 0 && s[i - 1] == '.';
    if (w == var && !member) {
      size_t before = i;
      while (before > b && blank(s[before - 1])) --before;
      if (before >= b + 2 && (s.substr(before - 2, 2) == "++" || s.substr(before - 2, 2) == "--")) return true;
      size_t after = skip_blanks(s, i + w.size());
      if (after < e && s[after] == '.') {  // a swizzle: k.x = ...
        after = skip_blanks(s, after + 1);
        while (after < e && word_char(s[after])) ++after;
        after = skip_blanks(s, after);
      }
      std::string_view rest = s.substr(after, std::min<size_t>(3, e - after));
      if (rest.substr(0, 2) == "++" || rest.substr(0, 2) == "--") return true;
      if (!rest.empty() && rest[0] == '=' && rest.substr(0, 2) != "==") return true;
      if (rest.size() >= 2 && rest[1] == '=' && std::string_view("+-*/%&|^").find(rest[0]) != std::string_view::npos)
        return true;
      if (rest == "<<=" || rest == ">>=") return true;
    }
    i += w.size();
  }
  return false;
}

}  // namespace

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t matching(std::string_view s, size_t open) {
  char o = s[open], c = o == '(' ? ')' : o == '[' ? ']' : '}';
  int nest = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++nest;
    if (s[i] == c && --nest == 0) return i;
  }
  return std::string_view::npos;
}

size_t statement_end(std::string_view s, size_t i) {
  const size_t n = s.size();
  i = skip_blanks(s, i);
  if (i >= n) return n;
  auto after_parentheses = [&](size_t from) {  // just past the (...) that follows `from`
    size_t open = skip_blanks(s, from);
    size_t close = open < n && s[open] == '(' ? matching(s, open) : std::string_view::npos;
    return close == std::string_view::npos ? n : close + 1;
  };
  if (s[i] == '{') {
    size_t close = matching(s, i);
    return close == std::string_view::npos ? n : close + 1;
  }
  std::string_view w = word_at(s, i);
  if (w == "for" || w == "while" || w == "switch") return statement_end(s, after_parentheses(i + w.size()));
  if (w == "if") {
    size_t end = statement_end(s, after_parentheses(i + 2)), next = skip_blanks(s, end);
    return word_at(s, next) == "else" ? statement_end(s, next + 4) : end;
  }
  if (w == "do") {
    size_t end = skip_blanks(s, statement_end(s, i + 2));
    if (word_at(s, end) != "while") return n;
    end = skip_blanks(s, after_parentheses(end + 5));
    return end < n && s[end] == ';' ? end + 1 : n;
  }
  int nest = 0;  // a plain statement: up to its ';' outside brackets
  for (; i < n; ++i) {
    if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++nest;
    if (s[i] == ')' || s[i] == ']' || s[i] == '}') --nest;
    if (nest < 0) return i;
    if (s[i] == ';' && nest == 0) return i + 1;
  }
  return n;
}

bool has_loop(std::string_view s, size_t b, size_t e) {
  for (size_t i = b; i < e;) {
    std::string_view w = (i == 0 || !word_char(s[i - 1])) ? word_at(s, i) : std::string_view{};
    if (w == "for" || w == "while" || w == "do") return true;
    i += w.empty() ? 1 : w.size();
  }
  return false;
}

std::vector<std::string> defined_functions(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '{') ++depth;
    if (s[i] == '}') --depth;
    std::string_view w = depth == 0 && (i == 0 || !word_char(s[i - 1])) ? word_at(s, i) : std::string_view{};
    if (w.empty()) {
      ++i;
      continue;
    }
    size_t open = skip_blanks(s, i + w.size());
    if (open < s.size() && s[open] == '(') {
      size_t close = matching(s, open), body = close == std::string_view::npos ? close : skip_blanks(s, close + 1);
      if (body < s.size() && s[body] == '{') out.emplace_back(w);
    }
    i += w.size();
  }
  return out;
}

bool calls(std::string_view s, size_t b, size_t e, const std::vector<std::string>& functions) {
  for (size_t i = b; i < e;) {
    std::string_view w = (i == 0 || !word_char(s[i - 1])) ? word_at(s, i) : std::string_view{};
    if (w.empty()) {
      ++i;
      continue;
    }
    size_t open = skip_blanks(s, i + w.size());
    if (open < e && s[open] == '(' && std::find(functions.begin(), functions.end(), w) != functions.end()) return true;
    i += w.size();
  }
  return false;
}

std::optional<Counted> counted_loop(std::string_view s, size_t open, size_t semi1, size_t semi2, size_t close,
                                    size_t body_end) {
  // init: int|uint k = A (one declarator)
  std::string_view init = trimmed(s.substr(open + 1, semi1 - open - 1));
  std::string_view type = word_at(init, 0);
  if (type != "int" && type != "uint") return std::nullopt;
  size_t eq = init.find('=');
  if (eq == std::string_view::npos || init.substr(eq, 2) == "==") return std::nullopt;
  std::string_view var = trimmed(init.substr(type.size(), eq - type.size())), a = trimmed(init.substr(eq + 1));
  if (!is_name(var) || a.empty() || loose_operator(a)) return std::nullopt;
  // condition: k < B
  std::string_view cond = trimmed(s.substr(semi1 + 1, semi2 - semi1 - 1));
  if (cond.substr(0, var.size()) != var || (cond.size() > var.size() && word_char(cond[var.size()])))
    return std::nullopt;
  std::string_view op = trimmed(cond.substr(var.size()));
  if (op.size() < 2 || op[0] != '<' || op[1] == '<' || op[1] == '=') return std::nullopt;
  std::string_view bound = trimmed(op.substr(1));
  if (bound.empty() || loose_operator(bound)) return std::nullopt;
  // step: ++k, k++, k += 1
  std::string step;
  for (char c : s.substr(semi2 + 1, close - semi2 - 1))
    if (!blank(c)) step += c;
  std::string k(var);
  if (step != "++" + k && step != k + "++" && step != k + "+=1" && step != k + "+=1u") return std::nullopt;
  if (written(s, close + 1, body_end, var)) return std::nullopt;

  Counted c;
  c.var = k;
  c.init_end = size_t(a.data() - s.data()) + a.size();
  c.bound_begin = size_t(bound.data() - s.data());
  c.bound_end = c.bound_begin + bound.size();
  size_t step_end = close;
  while (step_end > semi2 + 1 && blank(s[step_end - 1])) --step_end;
  c.step_end = step_end;
  auto from = integer(a), to = integer(bound);
  c.small_literal = from && to && *to - *from <= 64;
  return c;
}

}  // namespace gpu::budget
