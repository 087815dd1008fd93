#include "app/widgets/plot.h"
#include "compute/io/output.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

std::string plot_csv(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y) {
  std::ostringstream out;
  out.precision(10);
  out << (spec.x_label.empty() ? "index" : spec.x_label) << "," << spec.y_label << "\n";
  for (size_t i = 0; i < y.size(); ++i) out << (x.empty() ? double(i) : x[i]) << "," << y[i] << "\n";
  return out.str();
}

namespace {
std::optional<PlotData> picture_request;
std::string written_for, written_file;  // the last plot picture written, and for which plot
}  // namespace

void plot_written(const std::string& name, const std::filesystem::path& file) {
  written_for = name, written_file = file.string();
}

std::filesystem::path timestamped_plot_path(const std::string& name, const std::string& extension) {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return std::filesystem::path("plots") / (name + "-" + stamp + extension);
}

std::optional<PlotData> take_plot_picture_request() {
  auto r = std::move(picture_request);
  picture_request.reset();
  return r;
}

// The frame, the ticks of both axes, the line, the labels and the CSV button, in that order.
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
    double y0 = ymin->second, y1 = ymax->second;
    plot_range(y0, y1);
    auto X = [&](double x) { return p0.x + float((x - x0) / (x1 - x0)) * (p1.x - p0.x); };
    auto Y = [&](double y) { return p1.y - float((y - y0) / (y1 - y0)) * (p1.y - p0.y); };
    auto y_ticks = nice_ticks(y0, y1, 4);
    auto y_labels = tick_labels(y_ticks);
    for (size_t i = 0; i < y_ticks.size(); ++i) {
      double t = y_ticks[i];
      dl->AddLine({p0.x, Y(t)}, {p1.x, Y(t)}, IM_COL32(255, 255, 255, 25));
      std::string s = spec.log_y ? "1e" + y_labels[i] : y_labels[i];
      dl->AddText({origin.x, Y(t) - ImGui::GetTextLineHeight() * 0.5f}, axis, s.c_str());
    }
    auto x_ticks = nice_ticks(x0, x1, 5);
    auto x_labels = tick_labels(x_ticks);
    for (size_t i = 0; i < x_ticks.size(); ++i) {
      double t = x_ticks[i];
      dl->AddLine({X(t), p1.y}, {X(t), p1.y + 4 * scale}, axis);
      const std::string& s = x_labels[i];
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
    written = timestamped_plot_path(spec.name, ".csv");
    std::filesystem::create_directories(written.parent_path());
    io::write_file(written, plot_csv(spec, xs, ys));
    written = std::filesystem::absolute(written);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("write what this plot shows to plots/%s-<time>.csv", spec.name.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("PNG")) picture_request = PlotData{spec, xs, ys};
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "this plot as a picture of its own at the window's size, for slides and projection:\n"
        "plots/%s-<time>.png and its .csv",
        spec.name.c_str());
  if (written_for == spec.name) ImGui::TextDisabled("wrote %s (and .csv)", written_file.c_str());
  ImGui::PopID();
  return written;
}
