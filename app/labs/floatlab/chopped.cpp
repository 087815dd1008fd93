// Da Graça 2006 under rounding towards zero in the float lab (chopped.h).
#include "app/labs/floatlab/chopped.h"

#include "app/labs/floatlab/charts.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>

namespace {

const char* kTowardZeroSource = "Da Graça 2006, §3.3 and table 4.1";
const std::vector<std::string> kTowardZeroHeader = {
    "probe", "what", "GPU, towards zero", "CPU, towards zero (IEEE)", "GPU, to nearest", "the report (2006)"};

std::string range_text(const floatlab::ErrorRange& r) {
  if (!r.count) return "-";
  char s[48];
  auto thousandths = [](double x) { return std::round(x * 1000) / 1000 + 0.0; };  // no "-0.000"
  std::snprintf(s, sizeof s, "[%.3f, %.3f]", thousandths(r.lo), thousandths(r.hi));
  return s;
}

std::string bits_text(const floatlab::FfAccuracy& a) {
  if (!a.count) return "-";
  if (a.exact) return "exact";
  char s[32];
  std::snprintf(s, sizeof s, "%.1f bits", a.bits);
  return s;
}

// One row of the table: its six cells, and whether the GPU under RTZ gave the CPU's results bit
// for bit (or the same answer) where it ran.
struct Row {
  std::vector<std::string> cells;
  bool gpu_ran = false, gpu_as_cpu = false;
};

std::vector<Row> rows_of(const floatlab::Chopped& c) {
  std::vector<Row> rows;
  for (auto& p : c.probes)
    rows.push_back({{p.test, p.question, p.gpu, p.cpu, p.nearest, "7800GTX: " + p.gtx7800}, c.offered, p.gpu == p.cpu});
  for (auto& r : c.ranges)
    rows.push_back({{"table 3.1", r.op + ": error in ulps", range_text(r.gpu), range_text(r.cpu), range_text(r.nearest),
                     "chopping " + r.chopping + "; R300 " + r.r300 + ", NV35 " + r.nv35},
                    c.offered,
                    r.differing == 0});
  for (auto& o : c.operators)
    rows.push_back({{"table 4.1", o.cpu.op, bits_text(o.gpu), bits_text(o.cpu), bits_text(o.nearest),
                     o.cpu.seed_measured == "-" ? "-" : "7800GTX: " + o.cpu.seed_measured},
                    c.offered,
                    o.differing == 0});
  return rows;
}

}  // namespace

TableData chopped_table(const floatlab::Chopped& c) {
  TableData t{"floatlab-towards-zero",
              std::string("Rounding towards zero, as the 2006 GPUs chopped (") + kTowardZeroSource + ")",
              kTowardZeroHeader};
  for (auto& r : rows_of(c)) {
    t.rows.push_back(r.cells);
    t.colours.push_back({0, 0, r.gpu_ran && !r.gpu_as_cpu ? 0xff6060u : 0u, 0, 0, 0});
  }
  t.sentences = 5;
  return t;
}

ChartPicture chopped_chart(const floatlab::Chopped& c) {
  std::vector<VerdictRow> rows;
  for (auto& r : rows_of(c)) {
    VerdictRow v{r.cells[0], {}};
    for (size_t col = 1; col < r.cells.size(); ++col)
      v.cells.push_back({r.cells[col], col == 2 && r.gpu_ran ? (r.gpu_as_cpu ? kAgrees : kDiffers) : kNoVerdict});
    rows.push_back(std::move(v));
  }
  const std::vector<std::string> heads = {"what", "GPU, to zero", "CPU, to zero", "GPU, to nearest",
                                          "the report (2006)"};
  return verdict_table_chart(
      "Rounding towards zero on " + c.device + ", as the 2006 GPUs chopped",
      c.offered ? "green: the GPU under RTZ as IEEE's rounding towards zero on this CPU, bit for bit; orange: differs"
                : "this device offers no rounding towards zero in shaders: the CPU's column alone",
      heads, rows);
}

void print_chopped(const floatlab::Chopped& c) {
  std::printf(
      "\n%s like for like: rounding towards zero on %s (SPIR-V RoundingModeRTZ) and on this CPU "
      "(fesetround(FE_TOWARDZERO)), %u random inputs a row\n",
      kTowardZeroSource, c.device.c_str(), c.count);
  if (!c.offered) std::printf("%s\n", c.why_not.c_str());
  auto t = chopped_table(c);
  const char* format = "%-10s %-38s %-18s %-24s %-18s %s\n";
  std::printf(format, kTowardZeroHeader[0].c_str(), kTowardZeroHeader[1].c_str(), kTowardZeroHeader[2].c_str(),
              kTowardZeroHeader[3].c_str(), kTowardZeroHeader[4].c_str(), kTowardZeroHeader[5].c_str());
  for (auto& r : t.rows)
    std::printf(format, r[0].c_str(), r[1].c_str(), r[2].c_str(), r[3].c_str(), r[4].c_str(), r[5].c_str());
  std::printf(
      "(IEEE's rounding towards zero truncates the exact result; the 2006 adders truncated what their 26 bits kept, "
      "so TEST 5 found 26 there and finds no i here)\n");
}

nlohmann::json chopped_json(const floatlab::Chopped& c) {
  auto range = [](const floatlab::ErrorRange& r) -> nlohmann::json {
    if (!r.count) return nullptr;
    return {{"lo", r.lo}, {"hi", r.hi}, {"count", r.count}};
  };
  auto bits = [](const floatlab::FfAccuracy& a) -> nlohmann::json {
    if (!a.count) return nullptr;
    return {{"exact", a.exact}, {"bits", a.bits}};
  };
  nlohmann::json probes = nlohmann::json::array(), ranges = nlohmann::json::array(), ops = nlohmann::json::array();
  for (auto& p : c.probes)
    probes.push_back({{"test", p.test},
                      {"question", p.question},
                      {"gpu_rtz", p.gpu},
                      {"cpu_rtz", p.cpu},
                      {"gpu_default", p.nearest},
                      {"report_7800gtx", p.gtx7800}});
  for (auto& r : c.ranges)
    ranges.push_back({{"op", r.op},
                      {"gpu_rtz", range(r.gpu)},
                      {"cpu_rtz", range(r.cpu)},
                      {"gpu_default", range(r.nearest)},
                      {"gpu_differing_from_cpu", r.differing},
                      {"report_chopping", r.chopping},
                      {"report_r300", r.r300},
                      {"report_nv35", r.nv35}});
  for (auto& o : c.operators)
    ops.push_back({{"op", o.cpu.op},
                   {"variant", o.cpu.variant},
                   {"gpu_rtz", bits(o.gpu)},
                   {"cpu_rtz", bits(o.cpu)},
                   {"gpu_default", bits(o.nearest)},
                   {"gpu_differing_from_cpu", o.differing},
                   {"report_7800gtx", o.cpu.seed_measured}});
  return {{"source", kTowardZeroSource}, {"device", c.device}, {"rtz_offered", c.offered}, {"why_not", c.why_not},
          {"inputs", c.count},           {"probes", probes},   {"ranges", ranges},         {"operators", ops}};
}

void chopped_panel(const floatlab::Chopped& c) {
  if (!ImGui::CollapsingHeader("Rounding towards zero, as the 2006 GPUs chopped (Da Graça 2006)")) return;
  ImGui::TextWrapped(
      "The report's GPUs truncated (chopped) their sums and products; ours round to nearest. The same probes and "
      "table 4.1's operators under rounding towards zero: on this GPU through the RoundingModeRTZ float control, "
      "and on this CPU under fesetround(FE_TOWARDZERO), IEEE-754's rounding towards zero, which the GPU's results "
      "are compared with bit for bit (red where they differ).");
  if (!c.offered) warning_text({1, 0.75f, 0.3f, 1}, "%s", c.why_not.c_str());
  if (!c.probes.empty()) table(chopped_table(c));
}
