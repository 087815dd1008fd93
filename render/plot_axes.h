// A plot's axes, shared by the panel's plots (app/widgets/plot.cpp) and the plot pictures
// (render/plot_picture.h): round ticks, labels that tell them apart, and the shown range.
#pragma once
#include <string>
#include <vector>

namespace render {

// Round tick values covering [lo, hi]: 1, 2 or 5 times a power of ten, about `count` of them.
std::vector<double> nice_ticks(double lo, double hi, int count = 5);
// The ticks' labels: the fewest significant digits (at least 3, and a whole number's integer
// digits) that tell neighbours apart.
std::vector<std::string> tick_labels(const std::vector<double>& ticks);
// The y range a plot shows for values in [lo, hi]: 5 % of room each side, and at least 1e-4
// of the values' size, so float rounding on a flat line is not magnified into noise.
void plot_range(double& lo, double& hi);

}  // namespace render
