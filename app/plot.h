// Plots in the panel with axes, ticks and units, and a CSV button that writes what the plot
// shows (plots/<name>-<time>.csv). ImGui's own PlotLines has neither.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

struct PlotSpec {
  std::string name;              // the CSV's name and the widget's id
  std::string x_label, y_label;  // with units: "step", "energy (J)"
  bool log_y = false;            // y on a log10 scale (values <= 0 left out)
  float height = 120;            // pixels at UI scale 1
};

// Round tick values covering [lo, hi]: 1, 2 or 5 times a power of ten, about `count` of them.
std::vector<double> nice_ticks(double lo, double hi, int count = 5);
// The CSV of a plot: a header "x_label,y_label" and a line a point.
std::string plot_csv(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y);
// Draws the plot (ImGui); x empty: 0, 1, 2 ... Returns the CSV written, when its button was pressed.
std::filesystem::path plot(const PlotSpec& spec, const std::vector<double>& x, const std::vector<double>& y);
