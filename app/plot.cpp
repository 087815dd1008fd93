#include "plot.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  // The step nearest (hi - lo) / count among 1, 2, 5 times 10^e; ticks k·m·10^e computed as
  // k·m / 10^-e for e < 0 so that they are the decimals they print as (0.6, not 0.6000000000000001).
  double raw = (hi - lo) / std::max(count, 1);
  int e = int(std::floor(std::log10(raw)));
  double best = 1;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (std::abs(m * std::pow(10.0, e) - raw) < std::abs(best * std::pow(10.0, e) - raw)) best = m;
  auto value = [&](double k) { return e >= 0 ? k * best * std::pow(10.0, e) : k * best / std::pow(10.0, -e); };
  double step = value(1);
  std::vector<double> ticks;
  for (double k = std::ceil(lo / step); value(k) <= hi + step * 1e-9 && ticks.size() < 100; ++k)
    ticks.push_back(k == 0 ? 0.0 : value(k));
  return ticks;
}

std::string plot_csv(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y) {
  std::ostringstream out;
  out.precision(10);
  out << (spec.x_label.empty() ? "index" : spec.x_label) << "," << spec.y_label << "\n";
  for (size_t i = 0; i < y.size(); ++i) out << (x.empty() ? double(i) : x[i]) << "," << y[i] << "\n";
  return out.str();
}

namespace {

std::string tick_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

// Long: the frame, the ticks of both axes, the line, the labels and the CSV button in order.
std::filesystem::path plot(const PlotSpec& spec, const std::vector<double>& xs, const std::vector<double>& ys) {
  std::vector<std::pair<double, double>> pts;
  for (size_t i = 0; i < ys.size(); ++i) {
    double x = xs.empty() ? double(i) : xs[i], y = ys[i];
    if (spec.log_y) y = y > 0 ? std::log10(y) : NAN;
    if (std::isfinite(x) && std::isfinite(y)) pts.push_back({x, y});
  }
  ImGui::PushID(spec.name.c_str());
  ImGui::TextUnformatted(spec.y_label.c_str());
  float scale = ImGui::GetFontSize() / 15.0f, h = spec.height * scale;
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x;
  float left = ImGui::CalcTextSize("-0.000e+00").x * 0.8f, bottom = ImGui::GetTextLineHeight() * 1.2f;
  ImVec2 p0{origin.x + left, origin.y}, p1{origin.x + w, origin.y + h - bottom};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled), line = IM_COL32(110, 190, 255, 255);
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  if (!pts.empty()) {
    auto [xmin, xmax] = std::minmax_element(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.first < b.first; });
    auto [ymin, ymax] =
        std::minmax_element(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.second < b.second; });
    double x0 = xmin->first, x1 = xmax->first > x0 ? xmax->first : x0 + 1;
    double y0 = ymin->second, y1 = ymax->second > y0 ? ymax->second : y0 + 1;
    double pad = 0.05 * (y1 - y0);
    y0 -= pad, y1 += pad;
    auto X = [&](double x) { return p0.x + float((x - x0) / (x1 - x0)) * (p1.x - p0.x); };
    auto Y = [&](double y) { return p1.y - float((y - y0) / (y1 - y0)) * (p1.y - p0.y); };
    for (double t : nice_ticks(y0, y1, 4)) {
      dl->AddLine({p0.x, Y(t)}, {p1.x, Y(t)}, IM_COL32(255, 255, 255, 25));
      std::string s = spec.log_y ? "1e" + tick_text(t) : tick_text(t);
      dl->AddText({origin.x, Y(t) - ImGui::GetTextLineHeight() * 0.5f}, axis, s.c_str());
    }
    for (double t : nice_ticks(x0, x1, 5)) {
      dl->AddLine({X(t), p1.y}, {X(t), p1.y + 4 * scale}, axis);
      std::string s = tick_text(t);
      float tw = ImGui::CalcTextSize(s.c_str()).x;  // centred on its tick, kept inside the plot's width
      dl->AddText({std::clamp(X(t) - tw * 0.5f, p0.x, p1.x - tw), p1.y + 4 * scale}, axis, s.c_str());
    }
    for (size_t i = 1; i < pts.size(); ++i)
      dl->AddLine({X(pts[i - 1].first), Y(pts[i - 1].second)}, {X(pts[i].first), Y(pts[i].second)}, line, 1.5f * scale);
    if (pts.size() == 1) dl->AddCircleFilled({X(pts[0].first), Y(pts[0].second)}, 3 * scale, line);
  }
  dl->AddRect(p0, p1, axis);
  ImGui::Dummy({w, h});
  ImGui::TextDisabled("%s", spec.x_label.c_str());
  ImGui::SameLine();
  std::filesystem::path written;
  if (ImGui::SmallButton("CSV")) {
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    written = std::filesystem::path("plots") / (spec.name + "-" + stamp + ".csv");
    std::filesystem::create_directories(written.parent_path());
    std::ofstream(written) << plot_csv(spec, xs, ys);
    written = std::filesystem::absolute(written);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("write what this plot shows to plots/%s-<time>.csv", spec.name.c_str());
  ImGui::PopID();
  return written;
}
