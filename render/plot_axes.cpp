#include "render/plot_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace render {

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

std::vector<std::string> tick_labels(const std::vector<double>& ticks) {
  // The fewest significant digits (3 at least) that tell every tick from its neighbours:
  // ticks 0.0005 apart around 31.9 read 31.8995, 31.9, 31.9005, not 31.9 three times.
  // Whole numbers below 10^9 keep their integer digits (2000, not 2e+03).
  double most = 0;
  for (double t : ticks) most = std::max(most, std::abs(t));
  int first = most >= 1 && most < 1e9 ? std::max(3, int(std::floor(std::log10(most))) + 1) : 3;
  std::vector<std::string> out;
  for (int digits = first; digits <= 12; ++digits) {
    out.clear();
    for (double t : ticks) {
      char b[40];
      std::snprintf(b, sizeof b, "%.*g", digits, t);
      out.push_back(b);
    }
    bool distinct = true;
    for (size_t i = 1; i < out.size(); ++i) distinct &= out[i] != out[i - 1];
    if (distinct) break;
  }
  return out;
}

void plot_range(double& lo, double& hi) {
  // A range of float rounding (an energy that is conserved) is widened to 1e-4 of the values,
  // so a flat line is drawn flat rather than as noise stretched over the whole plot.
  double span = std::max(hi - lo, 1e-4 * std::max(std::abs(lo), std::abs(hi)));
  if (span == 0) span = 1;
  double mid = 0.5 * (lo + hi);
  lo = mid - 0.55 * span, hi = mid + 0.55 * span;  // 5 % of room above and below
}

}  // namespace render
