#include "compute/machining/zoom_window.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace machining {

std::vector<Position> reaching(const std::vector<Position>& path, glm::vec2 lo, float window, float reach) {
  std::vector<Position> kept;
  for (auto& p : path)
    if (p.tip.x > lo.x - reach && p.tip.x < lo.x + window + reach && p.tip.y > lo.y - reach &&
        p.tip.y < lo.y + window + reach)
      kept.push_back(p);
  return kept;
}

namespace {

// The values of t where a window centred on centre + t·u keeps a position: |tip - centre -
// t·u| < h along x and along y, an open interval (empty: lo >= hi).
std::pair<double, double> keeps(glm::vec2 tip, glm::vec2 centre, glm::dvec2 u, double h) {
  double lo = -std::numeric_limits<double>::infinity(), hi = -lo;
  for (int a = 0; a < 2; ++a) {
    double off = double(tip[a]) - double(centre[a]);
    if (u[a] == 0) {
      if (!(std::fabs(off) < h)) return {0, 0};
      continue;
    }
    double t0 = (off - h) / u[a], t1 = (off + h) / u[a];
    lo = std::max(lo, std::min(t0, t1)), hi = std::min(hi, std::max(t0, t1));
  }
  return {lo, hi};
}

}  // namespace

std::optional<glm::vec2> window_keeping(const std::vector<Position>& path, glm::vec2 centre, float window, float reach,
                                        size_t count) {
  const double h = 0.5 * double(window) + double(reach);
  std::optional<glm::vec2> best;
  double nearest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 16; ++k) {  // the diagonal, then directions a golden angle apart
    const double angle = 0.785398163 + 2.399963230 * k;
    const glm::dvec2 u(std::cos(angle), std::sin(angle));
    // A sweep along t: +1 where a position's interval opens, -1 where it closes. Between two
    // consecutive events the window keeps a constant number of positions.
    std::vector<std::pair<double, int>> events;
    for (auto& p : path) {
      auto [lo, hi] = keeps(glm::vec2(p.tip), centre, u, h);
      if (lo < hi) events.push_back({lo, +1}), events.push_back({hi, -1});
    }
    std::sort(events.begin(), events.end());
    std::vector<double> places;  // the middles of the stretches keeping `count`
    int64_t kept = 0;
    for (size_t e = 0; e < events.size(); ++e) {
      kept += events[e].second;
      if (e + 1 < events.size() && kept == int64_t(count) && events[e + 1].first > events[e].first &&
          std::isfinite(events[e].first) && std::isfinite(events[e + 1].first))
        places.push_back(0.5 * (events[e].first + events[e + 1].first));
    }
    std::sort(places.begin(), places.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
    for (double t : places) {  // the nearest whose float window, as the bench makes it, keeps `count`
      if (std::fabs(t) >= nearest) break;
      glm::vec2 lo = centre + glm::vec2(t * u) - 0.5f * window;
      if (reaching(path, lo, window, reach).size() != count) continue;
      best = lo, nearest = std::fabs(t);
      break;
    }
  }
  return best;
}

}  // namespace machining
