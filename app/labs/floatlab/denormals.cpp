// SIMSURF §14.3.2's denormal penalty in the float lab (denormals.h).
#include "app/labs/floatlab/denormals.h"

#include <imgui.h>

#include <cstdio>

namespace {

const char* kSource = "Abecassis 2012, SIMSURF §14.3.2";

std::string results_text(const floatlab::DenormalRow& r) {
  if (r.results_zero) return "all 0 (flushed)";
  char s[64];
  std::snprintf(s, sizeof s, "%s, e.g. %.3g", r.results_subnormal ? "subnormal" : "normal", double(r.sample));
  return s;
}

std::string over_text(const floatlab::DenormalRow& r) {
  char s[32];
  std::snprintf(s, sizeof s, "x%.2f", r.over_normal);
  return s;
}

}  // namespace

TableData denormal_table(const floatlab::DenormalPenalty& p) {
  TableData t{"floatlab-denormals",
              std::string("Denormal numbers on this CPU and the GPU (") + kSource + ")",
              {"where", "values", "ms", "ns an operation", "over normal", "results"}};
  char ms[32], ns[32];
  for (auto& r : p.rows) {
    std::snprintf(ms, sizeof ms, "%.3f", r.ms);
    std::snprintf(ns, sizeof ns, "%.3f", r.ns_per_operation);
    t.rows.push_back({r.where, r.subnormal ? "subnormal" : "normal", ms, ns, over_text(r), results_text(r)});
  }
  return t;
}

void print_denormals(const floatlab::DenormalPenalty& p) {
  std::printf(
      "\n%s: denormal (subnormal) numbers, y = %g·y + d repeated %u times on %u values (d = %g: normal; "
      "d = %g: subnormal); CPU: %s, one thread; GPU: %s\n",
      kSource, double(p.c), p.iterations, p.count, double(p.d_normal), double(p.d_subnormal), p.cpu.c_str(),
      p.gpu.c_str());
  auto t = denormal_table(p);
  std::printf("%-22s %-10s %10s %16s %12s  %s\n", "where", "values", "ms", "ns an operation", "over normal", "results");
  for (auto& r : t.rows)
    std::printf("%-22s %-10s %10s %16s %12s  %s\n", r[0].c_str(), r[1].c_str(), r[2].c_str(), r[3].c_str(),
                r[4].c_str(), r[5].c_str());
  if (!p.daz_ftz) std::printf("(this CPU has no SSE control register: no DAZ and FTZ row)\n");
  std::printf(
      "(the report: on a CPU subnormals are often handled as exceptions and much slower, DAZ and FTZ "
      "remove them; on the GPU \"no time penalty\")\n");
}

nlohmann::json denormals_json(const floatlab::DenormalPenalty& p) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto& r : p.rows)
    rows.push_back({{"where", r.where},
                    {"values", r.subnormal ? "subnormal" : "normal"},
                    {"median_ms", r.ms},
                    {"ns_per_operation", r.ns_per_operation},
                    {"over_normal", r.over_normal},
                    {"results_subnormal", r.results_subnormal},
                    {"results_zero", r.results_zero},
                    {"sample", r.sample}});
  return {{"source", kSource},
          {"loop", "y = c*y + d"},
          {"c", p.c},
          {"d_normal", p.d_normal},
          {"d_subnormal", p.d_subnormal},
          {"values", p.count},
          {"iterations", p.iterations},
          {"cpu", p.cpu},
          {"gpu", p.gpu},
          {"rows", rows}};
}

void denormals_panel(gpu::Context& ctx, floatlab::DenormalPenalty& p) {
  if (!ImGui::CollapsingHeader("Denormal numbers (Abecassis 2012, SIMSURF §14.3.2)")) return;
  ImGui::TextWrapped(
      "The same loop, y = c·y + d, on normal and on subnormal values: on this CPU with DAZ (denormals are zero) and "
      "FTZ (flush to zero) off, then on, and on the GPU. The report: subnormals often slow a CPU down, not a GPU.");
  if (ImGui::Button("Time the loops")) p = floatlab::denormal_penalty(ctx);  // blocks the window for a moment
  if (!p.rows.empty()) table(denormal_table(p));
}
