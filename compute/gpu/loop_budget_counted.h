// What the loop budget reads of a for loop beyond its header: where its body ends, and
// whether it is a counted loop `for (int|uint k = A; k < B; ++k)` whose body leaves k alone.
// Such a loop, when no loop is inside it, keeps a trip count the GPU compiler can see (and
// unroll): its budget is taken once at entry by clamping B, not tested at each iteration (an
// early exit in every iteration made the mesh lab's ball loops up to 1.9x slower on an H200).
// All offsets are into the code with its comments blanked (loop_budget.cpp).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpu::budget {

bool word_char(char c);
// The offset of the bracket closing the one at `open` ('(', '[' or '{'), or npos.
size_t matching(std::string_view s, size_t open);
// The offset just past the statement that starts at or after `i` (a block, a loop, an if with
// its else, a do-while, or a plain statement up to its ';').
size_t statement_end(std::string_view s, size_t i);
// Whether [b, e) holds the keyword for, while or do.
bool has_loop(std::string_view s, size_t b, size_t e);
// The names of the functions `s` defines (`name (...) {` outside any braces).
std::vector<std::string> defined_functions(std::string_view s);
// Whether [b, e) calls one of `functions` (its name then '(').
bool calls(std::string_view s, size_t b, size_t e, const std::vector<std::string>& functions);

struct Counted {
  std::string var;         // k
  size_t init_end = 0;     // just past A
  size_t bound_begin = 0;  // B is [bound_begin, bound_end)
  size_t bound_end = 0;
  size_t step_end = 0;         // just past ++k
  bool small_literal = false;  // A and B integer literals, at most 64 iterations
};
// The for loop whose header's parentheses are at `open` and `close`, its two ';' at `semi1`
// and `semi2` and its body [close + 1, body_end): its counted form, if it has one.
std::optional<Counted> counted_loop(std::string_view s, size_t open, size_t semi1, size_t semi2, size_t close,
                                    size_t body_end);

}  // namespace gpu::budget
