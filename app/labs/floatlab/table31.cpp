#include "app/labs/floatlab/table31.h"

#include <imgui.h>

#include <cstdio>

using namespace floatlab;

namespace {
std::string range(const ErrorRange& r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%.4g, %.4g]", r.lo, r.hi);
  return buf;
}
}  // namespace

std::string division_text(const DivisionReading& d) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "a / b against a * (1/b), both on this GPU, %llu pairs with |b| in [2^-126, 2^126] (Vulkan's domain): "
                "%llu bit for bit the same, %llu quotients correctly rounded (a * (1/b): %llu). Reading: %s. (The "
                "report read the NV35's division error as the dividend times the rounded reciprocal.)",
                (unsigned long long)d.count, (unsigned long long)d.as_rcp_product,
                (unsigned long long)d.correctly_rounded, (unsigned long long)d.product_correct, d.reading.c_str());
  return buf;
}

nlohmann::json division_json(const DivisionReading& d) {
  return {{"pairs", d.count},
          {"skipped_quotient_not_normal", d.skipped},
          {"domain", "|b| in [2^-126, 2^126], Vulkan's domain for a / b"},
          {"same_as_a_times_rcp_b", d.as_rcp_product},
          {"correctly_rounded", d.correctly_rounded},
          {"a_times_rcp_b_correctly_rounded", d.product_correct},
          {"reading", d.reading},
          {"report_2006", "division = dividend x rounded reciprocal of the divisor (from the NV35's error range)"}};
}

void print_table31(const std::vector<ErrorRange>& rows, const DivisionReading& division) {
  std::printf(
      "\n3.1: error of each operation in ulps, signed (gpu - exact), against MPFR (Da Graça 2006 table 3.1: "
      "R300 and NV35; annex A: 7800 GTX)\n");
  std::printf("%-12s %-38s %10s %-22s %8s %18s  %-34s %-16s %-16s %s\n", "op", "inputs", "count", "range (ulps)",
              "exact %", "denormals: exact %", "Vulkan allows", "R300 (2006)", "NV35 (2006)", "7800 GTX (2006)");
  for (auto& r : rows)
    std::printf("%-12s %-38s %10llu %-22s %8.3f %9llu: %6.2f  %-34s %-16s %-16s %s\n", r.op.c_str(), r.domain.c_str(),
                (unsigned long long)r.count, range(r).c_str(), 100 * r.correctly_rounded,
                (unsigned long long)r.denormal_count, 100 * r.denormal_correct, r.vulkan.c_str(), r.r300.c_str(),
                r.nv35.c_str(), r.gtx7800.c_str());
  std::printf(
      "(the range is over inputs with no denormal operand or result; those are counted apart: Vulkan lets a "
      "driver flush them. a / b's first row keeps |b| within Vulkan's domain, where its 2.5 ulp hold; its last row "
      "is outside it, where Vulkan promises nothing. Counts are ours: the report gives none for its table 3.1)\n");
  std::printf("%s\n", division_text(division).c_str());
}

nlohmann::json table31_json(const std::vector<ErrorRange>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& r : rows)
    out.push_back({{"op", r.op},
                   {"inputs", r.domain},
                   {"count", r.count},
                   {"skipped_not_finite", r.skipped},
                   {"lo_ulps", r.lo},
                   {"hi_ulps", r.hi},
                   {"correctly_rounded", r.correctly_rounded},
                   {"denormal_cases", r.denormal_count},
                   {"denormal_cases_correctly_rounded", r.denormal_correct},
                   {"vulkan", r.vulkan},
                   {"r300_2006", r.r300},
                   {"nv35_2006", r.nv35},
                   {"gtx7800_2006", r.gtx7800}});
  return out;
}

TableData table31_table(const std::vector<ErrorRange>& rows) {
  TableData t{"floatlab-table31",
              "Error ranges against MPFR beside Da Graça 2006's table 3.1 (NV35)",
              {"op", "inputs", "range (ulps)", "exact %", "NV35 (2006)", "Vulkan allows"}};
  char exact[32];
  for (auto& r : rows) {
    std::snprintf(exact, sizeof exact, "%.3f", 100 * r.correctly_rounded);
    t.rows.push_back({r.op, r.domain, range(r), exact, r.nv35, r.vulkan});
  }
  return t;
}

void table31_panel(const std::vector<ErrorRange>& rows, const DivisionReading& division) {
  if (rows.empty() || !ImGui::CollapsingHeader("3.1: error ranges against MPFR")) return;
  ImGui::TextWrapped("%s", division_text(division).c_str());
  table(table31_table(rows));
}
