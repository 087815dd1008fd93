// A loop budget for GLSL the user writes: every loop in the user's code spends from a
// per-invocation budget, so no kernel a user writes can keep the GPU busy for ever (a GPU has
// no way to stop one shader that never ends: it wedges the device, or the whole machine).
//
// budget_loops() rewrites each loop header so that every iteration spends one unit:
//   while (cond)            ->  while ((cond) && vklab_spend(LINE))
//   do ... while (cond);    ->  do ... while ((cond) && vklab_spend(LINE));
//   for (init; cond; step)  ->  for (init; (cond) && vklab_spend(LINE); step)
// except a counted loop with no loop and no call of the code's own functions inside (`for (uint k = A; k < B; ++k)`, k
// left alone by its body: loop_budget_counted.h), whose end is clamped to the budget left at its entry and whose steps
// spend without a test, so that the GPU compiler still sees its trip count:
//   for (uint k = A, vklab_endN_ = vklab_bound(k, LINE); k < min(B, vklab_endN_); ++k, vklab_left_ -= min(vklab_left_,
//   1u))
// (the step saturates at 0: a function called in the body may spend from the budget too)
// (and one of at most 64 iterations between integer literals stays as written: the loops
// around it are budgeted). Only the text inside a loop header's parentheses changes: no line
// is added, so the compiler's messages keep the user's line numbers, and every byte outside
// the headers stays as written.
//
// loop_budget_glsl() is what the shader must hold before the user's code (the status buffer,
// vklab_spend() and the rest), and vklab_finish() must be called after it. An invocation that
// has spent its whole budget records the user's line of the loop that spent last (the first
// invocation to run out wins), and every loop in it ends at its next test. A tested loop also
// looks, every 4096 iterations, whether another invocation has run out, and ends too.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpu {

// 2^20 loop iterations an invocation, all its loops together. An honest kernel loops over a
// neighbourhood (tens of slots), a fixed small count, or a series of some thousands of terms:
// a hundred times less. A runaway invocation stops after 2^20 iterations; a round of the
// invocations a GPU holds at once (about 270 000 on an H100) then takes some tens of ms
// (estimated: a few instructions an iteration), and a dispatch as many rounds as it needs,
// fewer where tested loops see that another invocation ran out.
constexpr uint32_t kLoopBudget = 1u << 20;
// The budget on a device: kLoopBudget, except where the driver cuts loops short itself.
// llvmpipe (lavapipe) silently ends a loop after 65 535 iterations, all loops of an invocation
// together: there the budget is 2^15, so that a loop that long is reported, never cut unseen.
uint32_t loop_budget_for(const std::string& device_name);

enum class LoopKind { For, While, DoWhile };
const char* loop_kind_name(LoopKind k);  // "for", "while", "do-while"

struct BudgetedLoop {
  int line = 0;  // the user's line of its keyword (`do` for a do-while)
  LoopKind kind = LoopKind::For;
};
struct BudgetedCode {
  std::string text;                 // the code with each loop header spending
  std::vector<BudgetedLoop> loops;  // in the order of the text
};
// `code`'s first line is line `first_line` of the user's text. Throws std::invalid_argument
// ("line N: ...") for what the budget could not see through: a preprocessor directive (a macro
// could hide a loop), a loop keyword without its parenthesised header, a for header without
// its two ';', and names starting with vklab_ (the budget's own).
BudgetedCode budget_loops(const std::string& code, int first_line = 1);

// The status an invocation leaves when something went wrong, as the buffer holds it (std430,
// 16 bytes, zero when all went well). `tag` identifies the shader (non-zero; the caller
// chooses it): budget_tag is the tag of the first shader that ran out, budget_line the user's
// line of its loop. flag_tag and flag_count are for the caller's own check (vklab_flag()):
// the tag of the first shader that flagged something and how many times it did.
struct LoopStatus {
  uint32_t budget_tag = 0, budget_line = 0, flag_tag = 0, flag_count = 0;
};
constexpr uint32_t kLoopStatusBytes = sizeof(LoopStatus);

// GLSL for the shader's global scope, before the user's code: the status buffer at
// `binding` (set 0), vklab_spend(), vklab_bound(), vklab_finish() (to call after the user's
// code: it tells a counted loop that ran out last) and vklab_flag() (counts one, first tag wins).
std::string loop_budget_glsl(uint32_t binding, uint32_t tag, uint32_t budget = kLoopBudget);

}  // namespace gpu
