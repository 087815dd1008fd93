#include "app/labs/floatlab/charts.h"

#include <algorithm>
#include <cmath>

ChartPicture verdict_table_chart(const std::string& title, const std::string& key,
                                 const std::vector<std::string>& heads, const std::vector<VerdictRow>& rows) {
  const size_t columns = heads.size();
  // Each column as wide as its longest text (a cell is 6 pixels of text at scale 1): when the
  // picture is too narrow, every note shrinks by the same factor, none alone to a few pixels.
  std::vector<uint32_t> widths(columns);
  for (size_t col = 0; col < columns; ++col) {
    float widest = render::TextMesh::width(heads[col]);
    for (auto& row : rows) widest = std::max(widest, render::TextMesh::width(row.cells.at(col).first));
    widths[col] = uint32_t(std::ceil(widest / 6)) + 1;
  }
  std::vector<float> starts(columns + 1, 0.0f);
  for (size_t col = 0; col < columns; ++col) starts[col + 1] = starts[col] + float(widths[col]);
  ChartPicture p;
  p.chart.grid_w = uint32_t(starts[columns]);
  p.chart.grid_h = uint32_t(rows.size());
  // A table, as wide as the picture lets its questions be; under it a legend of two lines (the
  // lab's title and the key), no colour bar.
  p.chart.fill = true;
  p.chart.title = title;
  p.colormap = "verdict";
  p.key = key;
  auto note = [&](size_t col, float y, const std::string& text, float max_h) {
    p.chart.notes.push_back({0.5f * (starts[col] + starts[col + 1]), y, text, float(widths[col]) - 0.6f, max_h});
  };
  for (size_t col = 0; col < columns; ++col) note(col, -0.7f, heads[col], 0.7f);
  for (size_t i = 0; i < rows.size(); ++i) {
    float y = float(i) + 0.5f;
    for (size_t col = 0; col < columns; ++col) {
      p.cells.insert(p.cells.end(), widths[col], rows[i].cells[col].second);
      note(col, y, rows[i].cells[col].first, 0.6f);
    }
    p.chart.y_ticks.push_back({y, rows[i].tick});
  }
  return p;
}

// One row of cells and notes per probe.
ChartPicture verdict_chart(const floatlab::Report& r) {
  auto verdict = [](const std::string& s, bool same) {
    return s == "-" || s.empty() ? kNoVerdict : same ? kAgrees : kDiffers;
  };
  std::vector<VerdictRow> rows;
  for (auto& row : r.rows)
    rows.push_back({row.test,
                    {{row.question, kNoVerdict},
                     {row.found, row.as_ieee ? kAgrees : kDiffers},
                     {row.ieee, kNoVerdict},
                     {row.seed_7800gtx, verdict(row.seed_7800gtx, row.nv_as_ieee)},
                     {row.seed_rx1800xl, verdict(row.seed_rx1800xl, row.ati_as_ieee)}}});
  return verdict_table_chart("The probes on " + r.device + " beside IEEE-754 and the 2006 GPUs",
                             "green: as IEEE-754 (binary32, round to nearest even); orange: differs",
                             {"what the probe asks", "this GPU", "IEEE-754", "7800 GTX (2006)", "X1800 XL (2006)"},
                             rows);
}

std::vector<float> bit_picture(const floatlab::Report& r) {
  std::vector<float> px(64 * 65, 0.5f);
  for (int i = 0; i < 64; ++i)
    for (int b = 0; b < 32; ++b) {
      px[i * 65 + b] = float((r.test5[i] >> (31 - b)) & 1u);
      px[i * 65 + 33 + b] = float((r.test6[i] >> (31 - b)) & 1u);
    }
  return px;
}

ChartPicture bits_chart(const floatlab::Report& r) {
  ChartPicture p;
  p.chart.grid_w = 65;
  p.chart.grid_h = 64;
  p.cells = bit_picture(r);
  p.colormap = "gray";
  p.chart.title = "TEST 5: 1.5 - 2^-i (left)    TEST 6: (1.5 - 2^-i) - 1.5 (right)";
  p.chart.x_label = "the result's 32 bits: sign, exponent, mantissa";
  p.chart.y_label = "i";
  p.key = "white: bit 1, black: bit 0";
  for (float x0 : {0.0f, 33.0f}) {
    p.chart.notes.push_back({x0 + 0.5f, -1.0f, "s"});
    p.chart.notes.push_back({x0 + 5, -1.0f, "exponent", 7.5f});
    p.chart.notes.push_back({x0 + 20.5f, -1.0f, "mantissa (23 bits)", 22});
  }
  for (int i : {1, 8, 16, 24, 32, 40, 48, 56, 64}) p.chart.y_ticks.push_back({float(i) - 0.5f, std::to_string(i)});
  // Where rounding takes over, noted a few rows below it (the rows there repeat).
  auto note = [&](float x, uint32_t first, const std::string& what) {
    if (first < 1 || first > 56) return;
    p.chart.notes.push_back({x, float(first) + 4.5f, "i >= " + std::to_string(first) + ": " + what, 22});
  };
  note(20.5f, r.test5_first_equal, "rounds to 1.5");  // over the mantissa, rows of 1.5
  note(53.5f, r.test6_first_zero, "gives 0");
  return p;
}

ChartPicture ulp_chart(const floatlab::UlpMap& m) {
  ChartPicture p;
  p.chart.grid_w = m.binades();
  p.chart.grid_h = uint32_t(m.ops.size());
  p.chart.cell_aspect = 2;
  p.chart.title = "Largest error of each operation over its input range, " + std::to_string(m.per_binade) +
                  " random inputs a binade";
  p.chart.x_label = "input x in [2^e, 2^(e+1)); a * b and a / b: b in [1, 2)";
  for (double u : m.max_ulp) p.cells.push_back(std::isnan(u) ? NAN : float(std::log2(1 + u)));
  for (int e = m.e_lo; e <= m.e_hi; e += 5)
    p.chart.x_ticks.push_back({float(e - m.e_lo) + 0.5f, "2^" + std::to_string(e)});
  for (size_t i = 0; i < m.ops.size(); ++i) p.chart.y_ticks.push_back({float(i) + 0.5f, m.ops[i]});
  // The colours span what this device shows (at least 0 to 4: up to 15 ulps).
  float top = 4;
  for (float v : p.cells)
    if (std::isfinite(v)) top = std::max(top, std::ceil(v));
  p.colormap = "heat";
  p.lo = 0, p.hi = top;
  p.bar = render::LegendBar{"heat", 0, top, "log2(1 + largest error in ulps of the result)"};
  p.key = "magenta: the result is not a finite float";
  return p;
}

// Table 3.1 as bars: a row an operation and kind of input, the cells from -3 to 3 ulps lit where
// the measured error range lies (clipped, the true range written beside), the report's NV35 range
// on its own row under each of its four operations.
ChartPicture table31_chart(const std::vector<floatlab::ErrorRange>& rows) {
  constexpr int kCells = 120;  // -3 .. 3 ulps, 0.05 a cell
  auto x_of = [](double ulps) { return float((std::clamp(ulps, -3.0, 3.0) + 3.0) / 6.0 * kCells); };
  ChartPicture p;
  p.chart.fill = true;  // bars over an axis in ulps: as wide as the names beside them leave room for
  p.chart.title = "Table 3.1: error of each operation in ulps against MPFR, and the report's NV35 (2006)";
  p.chart.x_label = "signed error (gpu - exact) in ulps of the exact result; clipped to [-3, 3]";
  p.colormap = "heat";
  p.lo = 0, p.hi = 1;
  p.key = "lit: the range of the errors measured; beside each name: the range, unclipped";
  auto bar = [&](double lo, double hi, const std::string& label, const std::string& text) {
    float y = float(p.chart.y_ticks.size()) + 0.5f;
    for (int c = 0; c < kCells; ++c) {
      float x = float(c) + 0.5f;
      p.cells.push_back(x >= x_of(lo) && x <= std::max(x_of(hi), x_of(lo) + 1) ? 0.85f : 0.0f);
    }
    p.chart.y_ticks.push_back({y, label + " " + text});
  };
  for (auto& r : rows) {
    char text[64];
    std::snprintf(text, sizeof text, "[%.3g, %.3g]", r.lo, r.hi);
    bar(r.lo, r.hi, r.op + ", " + r.domain, text);
    double lo, hi;
    if (r.nv35 != "-" && std::sscanf(r.nv35.c_str(), "[%lf, %lf]", &lo, &hi) == 2)
      bar(lo, hi, r.op + ": NV35, 2006", r.nv35);
  }
  p.chart.grid_w = kCells;
  p.chart.grid_h = uint32_t(p.chart.y_ticks.size());
  for (int u = -3; u <= 3; ++u) p.chart.x_ticks.push_back({x_of(u), std::to_string(u)});
  return p;
}
