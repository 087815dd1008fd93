#include "app/labs/machining/readout.h"

#include <algorithm>
#include <cmath>

using namespace machining;

int64_t StockReadout::update(const Machine& m, const ReadoutView& v, bool milling, bool force,
                             const std::vector<float>& from, const std::vector<float>& areas, const ShadowRun* shadow,
                             size_t done, render::StockView& view) {
  if (v.looked != looked_) looked_ = v.looked, dirty = true, force = true;
  if (!dirty) return -1;
  auto now = std::chrono::steady_clock::now();
  if (!force && milling && now - last_ < std::chrono::milliseconds(250)) return -1;
  last_ = now;
  dirty = false;
  const auto& s = m.stock();
  auto h = m.heights();
  read_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - now).count();
  auto c = cut_stats(s, h, from, areas);
  removed = c.removed, max_depth = c.max_depth, cut = c;
  profile.clear();
  if (v.profile_along_x) {
    uint32_t row = std::min(s.ny - 1, uint32_t(v.profile_at * (s.ny - 1)));
    profile.assign(h.begin() + long(size_t(row) * s.nx), h.begin() + long(size_t(row + 1) * s.nx));
  } else {
    uint32_t col = std::min(s.nx - 1, uint32_t(v.profile_at * (s.nx - 1)));
    for (uint32_t j = 0; j < s.ny; ++j) profile.push_back(h[size_t(j) * s.nx + col]);
  }
  rough = roughness(profile);
  update_field(m, v, h, from, shadow, done, view);
  return c.non_finite;
}

void StockReadout::update_field(const Machine& m, const ReadoutView& v, const std::vector<float>& h,
                                const std::vector<float>& from, const ShadowRun* shadow, size_t done,
                                render::StockView& view) {
  field_ready = false;
  if (v.display == Display::Depth && v.depth_field) {
    std::vector<float> depth(h.size());
    for (size_t i = 0; i < h.size(); ++i) depth[i] = from[i] - h[i];
    view.set_field(depth);
    field_ready = true;
    return;
  }
  if (v.display == Display::Laplacian) {
    auto l = laplacian(m.stock(), h);
    std::vector<float> mag(l.size());
    for (size_t i = 0; i < l.size(); ++i) mag[i] = std::fabs(l[i]);
    auto at = mag.begin() + long(mag.size() * 99 / 100);  // the colours span 99 % of the brins
    std::nth_element(mag.begin(), at, mag.end());
    field_range = std::max(*at, 1e-12f);
    view.set_field(l);
    field_ready = true;
    return;
  }
  if (!shadow || shadow->done() != done) return;  // the comparison once the other run is level
  auto other = shadow->heights();
  if (shadow->kind() == "precision" && shadow->f64()) {
    comparison = compare_ulps(h, other);  // single − double
  } else if (shadow->kind() == "precision") {
    std::vector<float> single(other.begin(), other.end());
    comparison = compare_ulps(single, m.heights64());
  } else {
    comparison = compare_ulps(h, other);
  }
  field_range = float(std::clamp(comparison.max_ulps, 1.0, 16.0));
  view.set_field(comparison.ulps);
  field_ready = true;
}
