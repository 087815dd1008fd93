#include "app/labs/floatlab/ulp_cancellation.h"
#include "compute/io/output.h"

#include "app/core/session.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

using namespace floatlab;

namespace {

std::string g16(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.16g", v);
  return text;
}
std::string g12(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.12g", v);
  return text;
}
std::string g3(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}
std::string digits_text(const CancelRow& r) {
  char text[16];
  std::snprintf(text, sizeof text, r.rel_error == 0 ? "all" : "%.1f", r.digits);
  return text;
}
// The most digits a precision can hold: float 7.2, double 16.0, the report's decimal 10.
double most_digits(const std::string& precision) {
  return precision == "float" ? 24 * std::log10(2.0) : precision == "double" ? 53 * std::log10(2.0) : 10.0;
}
std::string where_rn(const UlpCancellation& u) {
  return u.rounded_on_gpu ? "rn(v) = float(v) in the shader (v sent as a double)"
                          : "rn(v) rounded by the CPU: this device has no shaderFloat64";
}
// The formula as the picture's narrow column shows it.
std::string short_method(const CancelRow& r) {
  std::string m = r.method;
  if (m.rfind("x1 = ", 0) == 0) m = m.substr(5);
  if (auto eq = m.find(" = -2c"); eq != std::string::npos) m = m.substr(0, eq);
  for (auto [from, to] : {std::pair<std::string, std::string>{"cos by its series", "series"},
                          {"sin by its series", "series"},
                          {"GLSL's built-in", "built-in"}})
    if (auto at = m.find(from); at != std::string::npos) m.replace(at, from.size(), to);
  return m;
}
std::string example_label(const CancelRow& r) {
  return r.example.rfind("small", 0) == 0   ? "1: small root"
         : r.example.rfind("large", 0) == 0 ? "1: large root"
                                            : "2: f(x)";
}

}  // namespace

ChartPicture ulp_cancellation_chart(const UlpCancellation& u) {
  constexpr float kNeutral = 0.5f, kGreen = 1, kOrange = 0;
  constexpr float kText = 0.45f, kHead = 0.55f;  // letters' height in rows: one size for the body
  ChartPicture p;
  p.chart.fill = true;
  p.chart.title = std::string(kSimsurfSource) + " on " + u.device + ": " + where_rn(u);
  p.colormap = "verdict";
  p.key =
      "green: as the report prints it / every digit the precision holds; orange: differs (the print of rn(0.3) and "
      "rn(1.2) lost a 0) / no digit correct";
  const uint32_t top_w[6] = {12, 12, 12, 12, 12, 12};
  const uint32_t low_w[7] = {7, 20, 11, 11, 6, 5, 12};
  uint32_t grid_w = 0;
  for (auto w : top_w) grid_w += w;
  p.chart.grid_w = grid_w;
  auto note = [&](const uint32_t* widths, int col, float y, const std::string& text, float max_h) {
    float x0 = 0;
    for (int k = 0; k < col; ++k) x0 += float(widths[k]);
    p.chart.notes.push_back({x0 + 0.5f * float(widths[col]), y, text, float(widths[col]) - 0.6f, max_h});
  };
  auto cells = [&](const uint32_t* widths, int ncol, const std::vector<float>& values) {
    for (int col = 0; col < ncol; ++col) p.cells.insert(p.cells.end(), widths[col], values[col]);
  };
  // §14.2.2: a row a value, the GPU's column beside the report's.
  const char* top_heads[] = {"rn(v), this GPU",        "rn(v), the report",     "ULP(rn(v)), this GPU",
                             "ULP(rn(v)), the report", "rn(v) + ULP, this GPU", "rn(v) + ULP, the report"};
  for (int col = 0; col < 6; ++col) note(top_w, col, -0.7f, top_heads[col], kHead);
  float y = 0.5f;
  for (auto& r : u.table) {
    auto verdict = [&](bool agrees) { return r.printed ? (agrees ? kGreen : kOrange) : kNeutral; };
    bool raw_rn = r.printed && r.reading_rn == r.printed_rn && r.rn_agrees;
    cells(top_w, 6, {kNeutral, verdict(raw_rn), kNeutral, verdict(r.ulp_agrees), kNeutral, verdict(r.next_agrees)});
    std::string texts[6] = {g16(r.rn),   r.printed ? r.printed_rn : "-",  g16(r.ulp), r.printed ? r.printed_ulp : "-",
                            g16(r.next), r.printed ? r.printed_next : "-"};
    for (int col = 0; col < 6; ++col) note(top_w, col, y, texts[col], kText);
    p.chart.y_ticks.push_back({y, r.v + (r.printed ? "" : " (yours)")});
    y += 1;
  }
  // §14.5.1: a header row, then a row a computed value.
  cells(low_w, 7, std::vector<float>(7, kNeutral));
  const char* low_heads[] = {"precision",      "formula", "value",     "exact (MPFR, 256 bits)",
                             "relative error", "digits",  "the report"};
  for (int col = 0; col < 7; ++col) note(low_w, col, y, low_heads[col], kHead);
  p.chart.y_ticks.push_back({y, "§14.5.1"});
  y += 1;
  for (auto& r : u.rows) {
    float digits = float(std::clamp(r.digits / most_digits(r.precision), 0.0, 1.0));
    cells(low_w, 7, {kNeutral, kNeutral, kNeutral, kNeutral, kNeutral, digits, kNeutral});
    // the report's figure without its comment ("0.00000005: no digit correct (eq. 14.6)")
    std::string report = r.report.empty() ? "-" : r.report.substr(0, r.report.find_first_of(":,"));
    std::string texts[7] = {r.on_gpu ? r.precision : "decimal (CPU)",
                            short_method(r),
                            g12(r.value),
                            g12(r.exact),
                            g3(r.rel_error),
                            digits_text(r),
                            report};
    for (int col = 0; col < 7; ++col) note(low_w, col, y, texts[col], kText);
    p.chart.y_ticks.push_back({y, example_label(r)});
    y += 1;
  }
  p.chart.grid_h = uint32_t(y - 0.5f);
  return p;
}

void print_ulp_cancellation(const UlpCancellation& u) {
  std::printf("\n%s on %s: rounding to float (single precision), %s\n", kSimsurfSource, u.device.c_str(),
              where_rn(u).c_str());
  std::printf("%-10s %-20s %-20s %-22s %-22s %-20s %-20s %s\n", "v", "rn(v) GPU", "rn(v) report", "ULP GPU",
              "ULP report", "rn+ULP GPU", "rn+ULP report", "as printed");
  for (auto& r : u.table) {
    bool same = r.rn_agrees && r.ulp_agrees && r.next_agrees && r.reading_rn == r.printed_rn;
    std::printf("%-10s %-20s %-20s %-22s %-22s %-20s %-20s %s\n", r.v.c_str(), g16(r.rn).c_str(),
                r.printed ? r.printed_rn.c_str() : "-", g16(r.ulp).c_str(), r.printed ? r.printed_ulp.c_str() : "-",
                g16(r.next).c_str(), r.printed ? r.printed_next.c_str() : "-",
                !r.printed ? "(yours)"
                : same     ? "yes"
                           : ("no: " + r.note).c_str());
  }
  std::printf("(ULP from the bits: eps * 2^e, eps = 2^-23; rn(v) + ULP is a float addition on the GPU)\n");
  std::printf("\n%s: catastrophic cancellation; example 2 at x = %.9g\n", kSimsurfSource, u.x);
  std::printf("%-40s %-24s %-46s %-24s %-24s %-10s %-6s %s\n", "example", "precision", "formula", "value",
              "exact (MPFR, 256 bits)", "rel. error", "digits", "the report");
  for (auto& r : u.rows)
    std::printf("%-40s %-24s %-46s %-24s %-24s %-10s %-6s %s\n", r.example.c_str(),
                (r.precision + (r.on_gpu ? "" : " (CPU)")).c_str(), r.method.c_str(), g16(r.value).c_str(),
                g16(r.exact).c_str(), g3(r.rel_error).c_str(), digits_text(r).c_str(),
                r.report.empty() ? "-" : r.report.c_str());
  if (!u.fp64) std::printf("(no double rows: this device has no shaderFloat64)\n");
}

nlohmann::json ulp_cancellation_json(const UlpCancellation& u) {
  nlohmann::json table = nlohmann::json::array(), rows = nlohmann::json::array();
  for (auto& r : u.table)
    table.push_back({{"v", r.v},
                     {"printed_row", r.printed},
                     {"rn", r.rn},
                     {"rn_bits", r.rn_bits},
                     {"ulp", r.ulp},
                     {"rn_plus_ulp", r.next},
                     {"rn_plus_ulp_bits", r.next_bits},
                     {"cpu_rn", r.cpu_rn},
                     {"report_rn", r.printed_rn},
                     {"report_rn_read_as", r.reading_rn},
                     {"report_ulp", r.printed_ulp},
                     {"report_rn_plus_ulp", r.printed_next},
                     {"agrees", {{"rn", r.rn_agrees}, {"ulp", r.ulp_agrees}, {"rn_plus_ulp", r.next_agrees}}},
                     {"note", r.note}});
  for (auto& r : u.rows)
    rows.push_back({{"example", r.example},
                    {"precision", r.precision},
                    {"formula", r.method},
                    {"on_gpu", r.on_gpu},
                    {"stable", r.stable},
                    {"value", r.value},
                    {"exact_mpfr", r.exact},
                    {"relative_error", r.rel_error},
                    {"digits_correct", r.digits},
                    {"report", r.report}});
  return {{"source", kSimsurfSource}, {"device", u.device}, {"rn_rounded_on_gpu", u.rounded_on_gpu},
          {"fp64", u.fp64},           {"x", u.x},           {"rounding_table", table},
          {"cancellation", rows}};
}

// Green: as the report prints it; orange: not; the report's own figures in their columns.
TableData ulp_table(const UlpCancellation& u) {
  TableData t{"floatlab-ulp",
              "ULP of rounded values (Abecassis 2012, SIMSURF §14.2.2)",
              {"v", "rn(v)", "ULP(rn(v))", "rn(v) + ULP", "the report's rn(v)", "the report's ULP", "note"}};
  t.sentences = 6;
  auto colour = [](bool printed, bool agrees) { return !printed ? 0u : agrees ? 0x80ff80u : 0xffb34du; };
  for (auto& r : u.table) {
    t.rows.push_back({r.v, g16(r.rn), g16(r.ulp), g16(r.next), r.printed ? r.printed_rn : "",
                      r.printed ? r.printed_ulp : "", r.note});
    t.colours.push_back({0, colour(r.printed, r.rn_agrees && r.reading_rn == r.printed_rn),
                         colour(r.printed, r.ulp_agrees), colour(r.printed, r.next_agrees)});
  }
  return t;
}

TableData cancellation_table(const UlpCancellation& u) {
  TableData t{"floatlab-cancellation",
              "Catastrophic cancellation against MPFR (Abecassis 2012, SIMSURF §14.5.1)",
              {"value", "precision", "formula", "digits", "value found", "exact", "relative error", "the report"}};
  for (auto& r : u.rows) {
    t.rows.push_back({example_label(r), r.precision + (r.on_gpu ? "" : " (CPU)"), r.method, digits_text(r),
                      g16(r.value), g16(r.exact), g3(r.rel_error), r.report});
    float share = float(std::clamp(r.digits / most_digits(r.precision), 0.0, 1.0));
    auto c = [](float v) { return uint32_t(std::clamp(v, 0.0f, 1.0f) * 255); };
    t.colours.push_back({0, 0, 0, c(1 - 0.5f * share) << 16 | c(0.7f + 0.3f * share) << 8 | c(0.3f + 0.2f * share)});
  }
  return t;
}

void ulp_cancellation_panel(const UlpCancellation& u) {
  if (u.table.empty() || !ImGui::CollapsingHeader("ULP and cancellation (Abecassis 2012, SIMSURF §14.2.2 / §14.5.1)"))
    return;
  ImGui::TextWrapped("%s. Green: as the report prints it.", where_rn(u).c_str());
  table(ulp_table(u));
  ImGui::TextWrapped("Catastrophic cancellation, against MPFR at 256 bits (example 2 at x = %.9g)", u.x);
  table(cancellation_table(u));
}

int run_ulp_cancellation(const Options& o) {
  gpu::Context ctx(context_options(o));
  auto u = ulp_and_cancellation(ctx);
  print_ulp_cancellation(u);
  if (!o.out.empty()) {
    io::write_file(o.out,
                   ulp_cancellation_json(u).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    std::printf("wrote %s\n", o.out.c_str());
  }
  report_validation(o, ctx);
  return 0;
}
