// Plots in the panel with axes, ticks and units, and a CSV button that writes what the plot
// shows (plots/<name>-<time>.csv). ImGui's own PlotLines has neither.
#pragma once
#include "render/plot_axes.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

struct PlotSpec {
  std::string name;              // the CSV's name and the widget's id
  std::string x_label, y_label;  // with units: "step", "energy (J)"
  bool log_y = false;            // y on a log10 scale (values <= 0 left out)
  float height = 120;            // pixels at UI scale 1
};

// A plot's data: what the panel draws, the CSV holds and a plot picture shows.
struct PlotData {
  PlotSpec spec;
  std::vector<double> x, y;  // x empty: 0, 1, 2 ...
};

using render::nice_ticks;  // the axes (render/plot_axes.h), shared with the plot pictures
using render::plot_range;
using render::tick_labels;
// The CSV of a plot: a header "x_label,y_label" and a line a point.
std::string plot_csv(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y);
// Draws the plot (ImGui); x empty: 0, 1, 2 ... Returns the CSV written, when its button was pressed.
// Its PNG button asks for the plot as a picture of its own (the window makes it between frames:
// take_plot_picture_request).
std::filesystem::path plot(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y);
inline std::filesystem::path plot(const PlotData& d) { return plot(d.spec, d.x, d.y); }
// plots/<name>-<YYYYmmdd-HHMMSS><extension>: where a plot's or a table's buttons write.
std::filesystem::path timestamped_plot_path(const std::string& name, const std::string& extension);
// The plot whose PNG button was pressed since the last call, if any.
std::optional<PlotData> take_plot_picture_request();
// Said under the plot named `name` from now on: the picture written for it.
void plot_written(const std::string& name, const std::filesystem::path& file);
