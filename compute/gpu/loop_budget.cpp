// The loop budget: loop headers rewritten to spend, and the GLSL they call (loop_budget.h).
#include "compute/gpu/loop_budget.h"

#include "compute/gpu/loop_budget_counted.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace gpu {

namespace {

using budget::word_char;
bool word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The code with every comment's characters made blanks (newlines kept): the offsets are the
// code's, and nothing in a comment counts as a keyword, a parenthesis or a ';'.
std::string without_comments(const std::string& code) {
  std::string s = code;
  for (size_t i = 0; i < s.size();) {
    size_t end = s.compare(i, 2, "//") == 0 ? s.find('\n', i) : s.compare(i, 2, "/*") == 0 ? s.find("*/", i + 2) : i;
    if (end == i) {
      ++i;
      continue;
    }
    end = end == std::string::npos ? s.size() : end + (s[i + 1] == '*' ? 2 : 0);
    for (; i < end; ++i)
      if (s[i] != '\n') s[i] = ' ';
  }
  return s;
}

struct Insert {
  size_t at;
  std::string text;
};

// Scans the comment-free copy of the code, collecting what to insert where.
class Scanner {
 public:
  Scanner(const std::string& scan, int first_line) : s_(scan), line_(first_line) {}

  void run() {
    refuse_directives();
    functions_ = budget::defined_functions(s_);
    for (size_t i = 0; i < s_.size();) {
      char c = s_[i];
      if (c == '{') ++depth_;
      if (c == '}') --depth_;
      if (std::isdigit(static_cast<unsigned char>(c))) {  // a number whole (1e5, 2u, 0x1f)
        while (i < s_.size() && (word_char(s_[i]) || s_[i] == '.')) ++i;
        continue;
      }
      if (!word_start(c)) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < s_.size() && word_char(s_[end])) ++end;
      std::string word = s_.substr(i, end - i);
      if (word.rfind("vklab_", 0) == 0)
        fail(i, "'" + word + "': names starting with vklab_ are the loop budget's own; choose another name");
      if (word == "for") header_for(i, end);
      if (word == "while") header_while(i, end);
      if (word == "do") dos_.push_back({depth_, line_of(i)});
      i = end;
    }
  }

  std::vector<Insert> inserts;
  std::vector<BudgetedLoop> loops;

 private:
  [[noreturn]] void fail(size_t at, const std::string& what) {
    throw std::invalid_argument("line " + std::to_string(line_of(at)) + ": " + what);
  }
  // The user's line of offset `at` (offsets only grow, so the count goes on from the last).
  int line_of(size_t at) {
    for (; counted_ < at; ++counted_)
      if (s_[counted_] == '\n') ++line_;
    return line_;
  }
  void refuse_directives() {
    size_t start = 0;
    for (size_t i = 0; i <= s_.size(); ++i) {
      if (i < s_.size() && s_[i] != '\n') continue;
      size_t first = start;
      while (first < i && blank(s_[first])) ++first;
      if (first < i && s_[first] == '#')
        fail(first,
             "the preprocessor (#define, #if ...) is not allowed here: the loop budget must see every loop as "
             "written (use a const variable instead of a #define)");
      start = i + 1;
    }
  }
  size_t skip_blanks(size_t i) const {
    while (i < s_.size() && blank(s_[i])) ++i;
    return i;
  }
  // The '(' after a loop keyword and its matching ')'.
  std::pair<size_t, size_t> parentheses(size_t keyword, size_t after, const std::string& name) {
    size_t open = skip_blanks(after);
    if (open >= s_.size() || s_[open] != '(')
      fail(keyword, "'" + name + "' without its '(' right after it: the loop budget cannot read this loop");
    int nest = 0;
    for (size_t i = open; i < s_.size(); ++i) {
      if (s_[i] == '(') ++nest;
      if (s_[i] == ')' && --nest == 0) return {open, i};
    }
    fail(keyword, "the '(' after '" + name + "' is never closed");
  }
  // Makes the condition in [b, e) spend: `(cond) && vklab_spend(L)`; where it declares or
  // assigns (`bool more = f()`), the value after its '=' spends instead; an empty one is
  // vklab_spend(L) alone (for (;;)).
  void spend(size_t b, size_t e, int line) {
    std::string call = "vklab_spend(" + std::to_string(line) + "u)";
    while (b < e && blank(s_[b])) ++b;
    while (e > b && blank(s_[e - 1])) --e;
    if (b == e) {
      inserts.push_back({b, call});
      return;
    }
    int nest = 0;
    for (size_t i = b; i < e; ++i) {
      char c = s_[i];
      if (c == '(' || c == '[') ++nest;
      if (c == ')' || c == ']') --nest;
      bool assign = c == '=' && nest == 0 && (i + 1 >= e || s_[i + 1] != '=') &&
                    std::string("=!<>").find(s_[i - 1]) == std::string::npos;
      if (assign) {
        b = skip_blanks(i + 1);
        break;
      }
    }
    inserts.push_back({b, "("});
    inserts.push_back({e, ") && " + call});
  }
  void header_for(size_t keyword, size_t after) {
    int line = line_of(keyword);
    auto [open, close] = parentheses(keyword, after, "for");
    std::vector<size_t> semicolons;
    int nest = 0;
    for (size_t i = open + 1; i < close; ++i) {
      if (s_[i] == '(') ++nest;
      if (s_[i] == ')') --nest;
      if (s_[i] == ';' && nest == 0) semicolons.push_back(i);
    }
    if (semicolons.size() != 2)
      fail(keyword, "a for header needs two ';' (for (init; condition; step)) for the loop budget to read it");
    loops.push_back({line, LoopKind::For});
    // A counted loop with no loop inside keeps a trip count the compiler sees: its end is
    // clamped to what the budget allows at entry, and each step spends without a test.
    size_t body_end = budget::statement_end(s_, close + 1);
    auto counted = budget::has_loop(s_, close + 1, body_end) || budget::calls(s_, close + 1, body_end, functions_)
                       ? std::nullopt
                       : budget::counted_loop(s_, open, semicolons[0], semicolons[1], close, body_end);
    if (!counted) {
      spend(semicolons[0] + 1, semicolons[1], line);
    } else if (!counted->small_literal) {  // a few literal iterations inside budgeted loops: as written
      std::string end = "vklab_end" + std::to_string(++loops_counted_) + "_";
      inserts.push_back(
          {counted->init_end, ", " + end + " = vklab_bound(" + counted->var + ", " + std::to_string(line) + "u)"});
      inserts.push_back({counted->bound_begin, "min("});
      inserts.push_back({counted->bound_end, ", " + end + ")"});
      inserts.push_back(
          {counted->step_end, ", vklab_left_ -= min(vklab_left_, 1u)"});  // saturates: a call in the body may spend too
    }
  }
  // A `while` closes the innermost pending `do` of the same braces when a statement has just
  // ended before it (`} while` or `; while`); otherwise it starts a loop of its own.
  void header_while(size_t keyword, size_t after) {
    auto [open, close] = parentheses(keyword, after, "while");
    size_t before = keyword;
    while (before > 0 && blank(s_[before - 1])) --before;
    bool ended = before > 0 && (s_[before - 1] == '}' || s_[before - 1] == ';');
    BudgetedLoop loop{line_of(keyword), LoopKind::While};
    if (ended && !dos_.empty() && dos_.back().first == depth_) {
      loop = {dos_.back().second, LoopKind::DoWhile};
      dos_.pop_back();
    }
    if (skip_blanks(open + 1) == close) fail(keyword, "a while loop without a condition");
    spend(open + 1, close, loop.line);
    loops.push_back(loop);
  }

  const std::string& s_;
  int line_;
  size_t counted_ = 0;
  int depth_ = 0;                         // braces
  std::vector<std::pair<int, int>> dos_;  // pending `do`s: their braces' depth and line
  int loops_counted_ = 0;                 // counted loops so far (each its own end variable)
  std::vector<std::string> functions_;    // the code's own functions: a loop calling one is tested
};

}  // namespace

const char* loop_kind_name(LoopKind k) {
  switch (k) {
    case LoopKind::For:
      return "for";
    case LoopKind::While:
      return "while";
    case LoopKind::DoWhile:
      return "do-while";
  }
  return "?";
}

uint32_t loop_budget_for(const std::string& device_name) {
  return device_name.find("llvmpipe") != std::string::npos ? 1u << 15 : kLoopBudget;
}

BudgetedCode budget_loops(const std::string& code, int first_line) {
  std::string scan = without_comments(code);
  Scanner s(scan, first_line);
  s.run();
  std::stable_sort(s.inserts.begin(), s.inserts.end(), [](const Insert& a, const Insert& b) { return a.at < b.at; });
  BudgetedCode out;
  size_t done = 0;
  for (auto& ins : s.inserts) {
    out.text.append(code, done, ins.at - done).append(ins.text);
    done = ins.at;
  }
  out.text.append(code, done, std::string::npos);
  std::stable_sort(s.loops.begin(), s.loops.end(),
                   [](const BudgetedLoop& a, const BudgetedLoop& b) { return a.line < b.line; });
  out.loops = std::move(s.loops);
  return out;
}

std::string loop_budget_glsl(uint32_t binding, uint32_t tag, uint32_t budget) {
  if (tag == 0) throw std::invalid_argument("loop_budget_glsl: the tag 0 means 'none'");
  const std::string t = std::to_string(tag) + "u";
  return "layout(std430, binding = " + std::to_string(binding) +
         ") coherent buffer VklabStatus_b { uint budget_tag, budget_line, flag_tag, flag_count; } vklab_status_;\n"
         "uint vklab_left_ = " +
         std::to_string(budget) +
         "u;  // the loop budget: iterations this invocation may still run\n"
         "uint vklab_last_ = 0u;  // the line of the loop that spent last\n"
         "bool vklab_out_ = false;  // this invocation has run out (and said so)\n"
         "void vklab_ran_out(uint line) {  // the first to run out records its line; every loop ends at its next test\n"
         "  if (!vklab_out_ && atomicCompSwap(vklab_status_.budget_tag, 0u, " +
         t +
         ") == 0u) vklab_status_.budget_line = line;\n"
         "  vklab_out_ = true;\n"
         "  vklab_left_ = 0u;\n"
         "}\n"
         "bool vklab_spend(uint line) {  // a loop's test: one more iteration?\n"
         "  if (vklab_left_ > 0u) {\n"
         "    --vklab_left_;  // every 4096 iterations: has another invocation run out? Then stop too.\n"
         "    vklab_last_ = line;\n"
         "    if ((vklab_left_ & 4095u) != 0u || vklab_status_.budget_tag == 0u) return true;\n"
         "  }\n"
         "  vklab_ran_out(vklab_last_);\n"
         "  return false;\n"
         "}\n"
         "// A counted loop's end: no further than the budget left at its entry. Its steps spend\n"
         "// without a test, down to 0: where it ran out is told by the next test or vklab_finish().\n"
         "uint vklab_bound(uint k, uint line) {\n"
         "  if (vklab_left_ != 0u) vklab_last_ = line;\n"
         "  return k + min(vklab_left_, 0xffffffffu - k);\n"
         "}\n"
         "int vklab_bound(int k, uint line) {\n"
         "  if (vklab_left_ != 0u) vklab_last_ = line;\n"
         "  return k + int(min(vklab_left_, uint(0x7fffffff - max(k, 0))));\n"
         "}\n"
         "void vklab_finish() {  // after the user's code\n"
         "  if (vklab_left_ == 0u) vklab_ran_out(vklab_last_);\n"
         "}\n"
         "void vklab_flag() {  // the caller's check: counted, the first tag wins\n"
         "  uint first = atomicCompSwap(vklab_status_.flag_tag, 0u, " +
         t +
         ");\n"
         "  if (first == 0u || first == " +
         t +
         ") atomicAdd(vklab_status_.flag_count, 1u);\n"
         "}\n";
}

}  // namespace gpu
