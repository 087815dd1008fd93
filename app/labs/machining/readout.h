// What the machining lab reads back from its stock for the panel, the legend and the dump
// (SIMSURF ch. 16): the cut's statistics, a profile with its roughness, and the display's
// per-brin field (the depth of cut from a field, the Laplacian, or a comparison with another
// run). The lab: app/labs/machining/machining_lab.cpp.
#pragma once
#include "app/labs/machining/params.h"
#include "app/labs/machining/shadow.h"
#include "compute/machining/stats.h"
#include "compute/machining/zbuffer.h"
#include "render/machining/stock_view.h"

#include <chrono>
#include <string>

struct ReadoutView {
  Display display = Display::Depth;
  std::string looked;           // what the field and profile are made for (a change forces a read)
  bool profile_along_x = true;  // the profile: a row (else a column)
  double profile_at = 0.5;      // where, 0 to 1 across the stock
  bool depth_field = false;     // the depth of cut is drawn from a field (not top - height)
};

class StockReadout {
 public:
  machining::CutStats cut;
  double removed = 0, max_depth = 0;
  std::vector<float> profile;
  machining::Roughness rough;
  machining::UlpComparison comparison;
  bool field_ready = false;  // the view holds this readout's field
  float field_range = 1;     // the field's colours span ±field_range
  bool dirty = true;         // the stock changed since the last read
  double read_ms = 0;        // the last read-back of the heights (SIMSURF §16.4.3's finalisation)

  // Reads the heights back if dirty: at most 4 times a second while `milling` (a read is the
  // whole heightfield, 64 MiB at 4096²) unless `force`. `from` is what the run started from,
  // `areas` the N-buffer's patches. Returns the first brin that is not finite, or -1.
  int64_t update(const machining::Machine& m, const ReadoutView& v, bool milling, bool force,
                 const std::vector<float>& from, const std::vector<float>& areas, const ShadowRun* shadow, size_t done,
                 render::StockView& view);

 private:
  void update_field(const machining::Machine& m, const ReadoutView& v, const std::vector<float>& h,
                    const std::vector<float>& from, const ShadowRun* shadow, size_t done, render::StockView& view);
  std::string looked_;
  std::chrono::steady_clock::time_point last_{};
};
