#include "app/labs/floatlab/controls.h"

#include <imgui.h>

#include <cstdio>

using namespace floatlab;

namespace {
const char* kept_word(const Promise& p) { return !p.offered ? "not offered" : p.kept ? "kept" : "NOT KEPT"; }

std::string contraction_text(const ContractionTest& c) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "a * b - c with c = a * b rounded: nonzero (contracted into an fma) in %llu of %llu without `precise`, "
                "%llu with it (%s). Mul22 (Da Graça 2006, ch. 4) built without `precise`: %llu of %llu results differ, "
                "worst %.1f correct bits against %.1f with it.",
                (unsigned long long)c.fused_without_precise, (unsigned long long)c.count,
                (unsigned long long)c.fused_with_precise, c.kept() ? "NoContraction kept" : "NoContraction NOT kept",
                (unsigned long long)c.mul22_differing, (unsigned long long)c.mul22_count, c.mul22_bits_loose,
                c.mul22_bits_precise);
  return buf;
}
}  // namespace

void print_controls(const std::vector<Promise>& promises, const ContractionTest& c) {
  std::printf("\nwhat the driver promises (float controls, Vulkan 1.2), asked for in SPIR-V and tested\n");
  std::printf("%-28s %-12s %s\n", "execution mode", "promise", "what the kernel did");
  for (auto& p : promises) std::printf("%-28s %-12s %s\n", p.mode.c_str(), kept_word(p), p.found.c_str());
  std::printf("%s\n", contraction_text(c).c_str());
}

nlohmann::json controls_test_json(const std::vector<Promise>& promises, const ContractionTest& c) {
  nlohmann::json modes = nlohmann::json::array();
  for (auto& p : promises)
    modes.push_back(
        {{"mode", p.mode}, {"asks", p.promise}, {"offered", p.offered}, {"kept", p.kept}, {"found", p.found}});
  return {{"modes", modes},
          {"contraction",
           {{"count", c.count},
            {"fused_without_precise", c.fused_without_precise},
            {"fused_with_precise", c.fused_with_precise},
            {"no_contraction_kept", c.kept()},
            {"mul22_count", c.mul22_count},
            {"mul22_differing_without_precise", c.mul22_differing},
            {"mul22_bits_with_precise", c.mul22_bits_precise},
            {"mul22_bits_without_precise", c.mul22_bits_loose}}}};
}

TableData controls_table(const std::vector<Promise>& promises) {
  TableData t{"floatlab-controls",
              "What the driver promises (shader float controls) and what the kernels did",
              {"execution mode", "promise", "what the kernel did"}};
  t.sentences = 2;
  for (auto& p : promises) {
    t.rows.push_back({p.mode, kept_word(p), p.found});
    t.colours.push_back({0, p.offered && !p.kept ? 0xff6060u : 0u, 0});
  }
  return t;
}

void controls_panel(const std::vector<Promise>& promises, const ContractionTest& c) {
  if (promises.empty() || !ImGui::CollapsingHeader("What the driver promises (float controls)")) return;
  table(controls_table(promises));
  ImGui::TextWrapped("%s", contraction_text(c).c_str());
}
