// The loop budget (compute/gpu/loop_budget.h): loop headers rewritten on tricky texts, every
// byte outside them kept and every line where it was; the rewritten texts compile; refused
// texts say which line; and on the GPU an invocation that never ends stops after exactly its
// budget, records its line, and leaves the others' results alone.
#include "compute/gpu/loop_budget.h"
#include "compute/gpu/pipeline.h"
#include "compute/gpu/resources.h"
#include "compute/gpu/shader_compile.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cstring>

namespace {

using gpu::LoopKind;

struct Case {
  std::string in, out;
  std::vector<gpu::BudgetedLoop> loops;
};

// Each text at first_line 1 (the first case also at 10), rewritten exactly as expected.
const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {// comments that look like loops stay; nested parentheses in the bound; no braces: a
       // counted loop, its end clamped to the budget, its step spending
       "s = 0.0; // for (;;) in a comment stays\n"
       "for (uint k = 0u; k < min(n, (m + 1u)); ++k) /* while (x) */ s += f(k);\n",
       "s = 0.0; // for (;;) in a comment stays\n"
       "for (uint k = 0u, vklab_end1_ = vklab_bound(k, 2u); k < min(min(n, (m + 1u)), vklab_end1_); ++k, "
       "vklab_left_ -= min(vklab_left_, 1u)) /* while (x) */ s += f(k);\n",
       {{2, LoopKind::For}}},
      {// empty conditions, braces or none, nested: tested, the innermost counted
       "for(;;) { if (done()) break; }\nfor (int i = 0;; ++i)\n  for (int j = 0; j<i; j++) s += 1.0;\n",
       "for(;vklab_spend(1u);) { if (done()) break; }\nfor (int i = 0;vklab_spend(2u); ++i)\n"
       "  for (int j = 0, vklab_end1_ = vklab_bound(j, 3u); j<min(i, vklab_end1_); j++, vklab_left_ -= "
       "min(vklab_left_, 1u)) s += 1.0;\n",
       {{1, LoopKind::For}, {2, LoopKind::For}, {3, LoopKind::For}}},
      {// a header over three lines, its condition ending in a // comment (a step of 2: tested)
       "for (uint k = 0u;\n     k < 10u  // the ten\n     ; k += 2u)\n  s += 1.0;\n",
       "for (uint k = 0u;\n     (k < 10u) && vklab_spend(1u)  // the ten\n     ; k += 2u)\n  s += 1.0;\n",
       {{1, LoopKind::For}}},
      {// what keeps a for loop tested: a loop inside, a body writing k (assigned, incremented,
       // an out argument), <=; a few literal iterations inside stay as written, more are clamped
       "for (int a = 0; a < 3; ++a)\n  for (int c = 0; c < 3; ++c) s += 1.0;\n"
       "for (uint k = 0u; k < n; ++k) k += 1u;\nfor (uint k = 0u; k < n; k++) { s += 1.0; --k; }\n"
       "for (int e = 0; e < 9; ++e) s = frexp(s, e);\nfor (uint k = 0u; k <= n; ++k) s += 1.0;\n"
       "for (int c = 0; c < 100; c += 1) s += 1.0;\n",
       "for (int a = 0; (a < 3) && vklab_spend(1u); ++a)\n  for (int c = 0; c < 3; ++c) s += 1.0;\n"
       "for (uint k = 0u; (k < n) && vklab_spend(3u); ++k) k += 1u;\n"
       "for (uint k = 0u; (k < n) && vklab_spend(4u); k++) { s += 1.0; --k; }\n"
       "for (int e = 0; (e < 9) && vklab_spend(5u); ++e) s = frexp(s, e);\n"
       "for (uint k = 0u; (k <= n) && vklab_spend(6u); ++k) s += 1.0;\n"
       "for (int c = 0, vklab_end1_ = vklab_bound(c, 7u); c < min(100, vklab_end1_); c += 1, vklab_left_ -= "
       "min(vklab_left_, 1u)) s += "
       "1.0;\n",
       {{1, LoopKind::For},
        {2, LoopKind::For},
        {3, LoopKind::For},
        {4, LoopKind::For},
        {5, LoopKind::For},
        {6, LoopKind::For},
        {7, LoopKind::For}}},
      {// do-while with braces, inside it one without; the do's line is the loop's
       "do {\n  do s += 1.0; while (s < 3.0);\n} while (k-- > 0);\n",
       "do {\n  do s += 1.0; while ((s < 3.0) && vklab_spend(2u));\n} while ((k-- > 0) && vklab_spend(1u));\n",
       {{1, LoopKind::DoWhile}, {2, LoopKind::DoWhile}}},
      {// a while after a do-while, a while as a do's body, a declaring condition
       "do { k++; } while (k < 3);\nwhile (more(k)) k++;\ndo while (k < 9) k++; while (k < 5);\n"
       "while (bool go = more(k)) k++;\n",
       "do { k++; } while ((k < 3) && vklab_spend(1u));\nwhile ((more(k)) && vklab_spend(2u)) k++;\n"
       "do while ((k < 9) && vklab_spend(3u)) k++; while ((k < 5) && vklab_spend(3u));\n"
       "while (bool go = (more(k)) && vklab_spend(4u)) k++;\n",
       {{1, LoopKind::DoWhile},
        {2, LoopKind::While},
        {3, LoopKind::While},
        {3, LoopKind::DoWhile},
        {4, LoopKind::While}}},
      {// words that only start like keywords, numbers, no loop at all: untouched
       "int fortune = 1, do_it = 2, whileX = 3, for2 = 4; float e = 1e5 + 2.0e-3;\n/* do { } while (1); */\n"
       "s = float(fortune + do_it + whileX + for2) * e;\n",
       "int fortune = 1, do_it = 2, whileX = 3, for2 = 4; float e = 1e5 + 2.0e-3;\n/* do { } while (1); */\n"
       "s = float(fortune + do_it + whileX + for2) * e;\n",
       {}},
  };
  return c;
}

bool same_loops(const std::vector<gpu::BudgetedLoop>& a, const std::vector<gpu::BudgetedLoop>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](auto& x, auto& y) { return x.line == y.line && x.kind == y.kind; });
}

// The "(" that matches the ")" at `close`.
size_t opening(const std::string& s, size_t close) {
  int nest = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == ')') ++nest;
    if (s[i] == '(' && --nest == 0) return i;
  }
  return std::string::npos;
}

// What the rewriting adds, taken away again: a tested condition's "(" and ") && vklab_spend(Nu)"
// (or vklab_spend(Nu) alone), a counted loop's ", vklab_endN_ = vklab_bound(k, Nu)", "min(" and
// ", vklab_endN_)" and ", vklab_left_ -= min(vklab_left_, 1u)".
std::string without_spending(std::string s) {
  for (size_t at; (at = s.find("vklab_spend(")) != std::string::npos;) {
    size_t end = s.find(')', at) + 1;
    if (s.compare(at - 1, 1, ";") == 0) {  // an empty condition
      s.erase(at, end - at);
      continue;
    }
    size_t close = s.rfind(") && ", at), open = opening(s, close);
    s.erase(close, end - close);
    s.erase(open, 1);
  }
  const std::string step = ", vklab_left_ -= min(vklab_left_, 1u)";
  for (size_t at; (at = s.find(step)) != std::string::npos;) s.erase(at, step.size());
  for (size_t at; (at = s.find(", vklab_end")) != std::string::npos;) {
    size_t close = s.find(')', at);  // ", vklab_endN_)" closes the min(, the other is the bound's call
    if (s.compare(close - 1, 1, "_") != 0) {
      s.erase(at, close - at + 1);
      continue;
    }
    size_t open = opening(s, close);
    s.erase(at, close - at + 1);
    s.erase(open - 3, 4);  // "min("
  }
  return s;
}

TEST(LoopBudget, HeadersSpendAndEverythingElseStaysByteForByte) {
  for (auto& c : cases()) {
    SCOPED_TRACE(c.in);
    auto b = gpu::budget_loops(c.in);
    EXPECT_EQ(b.text, c.out);
    EXPECT_TRUE(same_loops(b.loops, c.loops));
    EXPECT_EQ(std::count(b.text.begin(), b.text.end(), '\n'), std::count(c.in.begin(), c.in.end(), '\n'))
        << "no line added: the compiler's messages keep the user's lines";
    EXPECT_EQ(without_spending(b.text), c.in) << "only the headers' insertions differ";
  }
  auto shifted = gpu::budget_loops(cases()[0].in, 10);  // a section starting at line 10
  EXPECT_NE(shifted.text.find("vklab_bound(k, 11u)"), std::string::npos) << shifted.text;
  ASSERT_EQ(shifted.loops.size(), 1u);
  EXPECT_EQ(shifted.loops[0].line, 11);
  EXPECT_STREQ(gpu::loop_kind_name(LoopKind::DoWhile), "do-while");
}

// Every rewritten text compiles, in a shader holding the budget's GLSL.
TEST(LoopBudget, RewrittenTextsCompile) {
  const std::string head =
      "#version 460\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer O { float o[]; };\n" +
      gpu::loop_budget_glsl(1, 3) +
      "uint n = 4u, m = 2u;\nbool done() { return n > 3u; }\nfloat f(uint k) { return float(k); }\n"
      "bool more(int k) { return k < 7; }\nvoid main() {\n  float s = 0.0;\n  int k = 0;\n#line 1\n";
  for (auto& c : cases()) {
    auto r = gpu::compile_glsl(head + gpu::budget_loops(c.in).text + "\n  vklab_finish();\n  o[0] = s;\n}\n",
                               gpu::ShaderStage::Compute, "budgeted");
    EXPECT_TRUE(r.ok) << c.in << "\n" << r.messages;
  }
}

TEST(LoopBudget, WhatTheBudgetCannotSeeIsRefusedWithItsLine) {
  auto refused = [](const std::string& text, const std::string& part) {
    try {
      gpu::budget_loops(text, 5);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused("s = 1.0;\n  #define N 10\n", "line 6: the preprocessor");
  refused("s = 1.0;\nvklab_left_ = 100u;\n", "line 6: 'vklab_left_'");
  refused("while true { }\n", "line 5: 'while' without its '('");
  refused("k = 1;\n\nfor (k < 3) k++;\n", "line 7: a for header needs two ';'");
  refused("for (;;\n", "line 5: the '(' after 'for' is never closed");
  refused("while ( ) k++;\n", "line 5: a while loop without a condition");
  EXPECT_NO_THROW(gpu::budget_loops("s = 1.0; // #define N 10\n/* vklab_left_ */\n"));  // comments are not code
  EXPECT_THROW(gpu::loop_budget_glsl(0, 0), std::invalid_argument);
  EXPECT_EQ(gpu::loop_budget_for("llvmpipe (LLVM 15.0.6, 256 bits)"), 1u << 15);
  EXPECT_EQ(gpu::loop_budget_for("NVIDIA H100 80GB HBM3"), gpu::kLoopBudget);
}

class LoopBudgetGpu : public GpuTest {};

// 200 invocations, each a short honest loop (10 to 16 iterations of an integer hash), every
// fifth flagging itself; one of them then loops for ever: in a tested while loop, or in a
// counted for loop told by vklab_finish(). The runaway stops after exactly the budget and its
// line is recorded; the others' hashes equal the CPU's; a second shader (another tag) that
// runs away too cannot overwrite the first's status.
TEST_F(LoopBudgetGpu, ARunawayStopsAtItsBudgetAndTheOthersFinish) {
  const uint32_t n = 200, budget = 1000;
  auto shader = [&](uint32_t tag, uint32_t tested, uint32_t counted) {
    std::string body =
        "uint h = i;\n"
        "for (uint k = 0u; k < 10u + i % 7u; ++k) h = h * 1664525u + 1013904223u;\n"
        "if (i == " +
        std::to_string(tested) +
        "u)\n"
        "  while (true) h += 1u;\n"
        "if (i == " +
        std::to_string(counted) +
        "u)\n"
        "  for (uint k = 0u; k < 0xffffffffu; ++k) h += 2u;\n"
        "o[i] = h;\n";
    std::string src =
        "#version 460\nlayout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer O { uint o[]; };\n" +
        gpu::loop_budget_glsl(1, tag, budget) +
        "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  if (i >= 200u) return;\n#line 1\n" +
        gpu::budget_loops(body).text + "#line 100000\n  vklab_finish();\n  if (i % 5u == 0u) vklab_flag();\n}\n";
    auto r = gpu::compile_glsl(src, gpu::ShaderStage::Compute, "runaway");
    EXPECT_TRUE(r.ok) << r.messages;
    return gpu::make_compute(ctx(), r.spirv, 0, {}, "runaway");
  };
  auto first = shader(7, 37, n), second = shader(8, 37, n), third = shader(9, n, 38);
  std::vector<gpu::Buffer> out, status;
  for (int s = 0; s < 3; ++s) {
    out.emplace_back(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    status.emplace_back(ctx(), gpu::kLoopStatusBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    std::memset(status.back().mapped(), 0, gpu::kLoopStatusBytes);
  }
  ctx().submit_now([&](VkCommandBuffer cmd) {
    gpu::Pipeline* p[3] = {&first, &second, &third};
    for (int s = 0; s < 3; ++s) {  // the first two share a status
      p[s]->bind(cmd, {gpu::storage_buffer(out[s]), gpu::storage_buffer(status[s == 2 ? 2 : 0])});
      p[s]->dispatch(cmd, n);
      gpu::barrier(
          cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
          VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_HOST_READ_BIT);
    }
  });
  gpu::LoopStatus shared, own;
  std::memcpy(&shared, status[0].mapped(), sizeof shared);
  std::memcpy(&own, status[2].mapped(), sizeof own);
  EXPECT_EQ(shared.budget_tag, 7u) << "the first shader to run out wins";
  EXPECT_EQ(shared.budget_line, 4u) << "the while loop's line in the body";
  EXPECT_EQ(shared.flag_tag, 7u);
  EXPECT_EQ(shared.flag_count, 40u) << "every fifth of 200, the first shader's only";
  EXPECT_EQ(own.budget_tag, 9u);
  EXPECT_EQ(own.budget_line, 6u) << "the counted loop's line, told after the body";
  auto o1 = out[0].download<uint32_t>(), o2 = out[1].download<uint32_t>(), o3 = out[2].download<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t h = i, honest = 10 + i % 7;
    for (uint32_t k = 0; k < honest; ++k) h = h * 1664525u + 1013904223u;
    // the runaway loop had what the hash left of the budget; the second shader, seeing the
    // first's status at its last test, one less
    EXPECT_EQ(o1[i], i == 37 ? h + budget - honest : h) << "invocation " << i;
    EXPECT_EQ(o2[i], i == 37 ? h + budget - honest - 1 : h) << "invocation " << i;
    EXPECT_EQ(o3[i], i == 38 ? h + 2 * (budget - honest) : h) << "invocation " << i;
  }
}

}  // namespace
