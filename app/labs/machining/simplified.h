// The machining lab's simplified tool (SIMSURF §12.1.1): what the simplification cost in
// precision (the tool seen from below against the unsimplified one, at the path's deepest cut)
// and what figure 12.2 blames for the time (fragments against the brins inside them), for the
// panel and the dump.
#pragma once
#include "app/labs/machining/params.h"
#include "compute/machining/simplify.h"
#include "compute/machining/zbuffer.h"

#include <nlohmann/json.hpp>

struct SimplifyReadout {
  size_t before = 0, after = 0;
  double estimate = 0, ms = 0;                                 // meshoptimizer's error (length units), its time
  machining::ToolHeightError tool;                             // against the unsimplified tool
  machining::FragmentStats fragments_before, fragments_after;  // on this stock's brins
};

// Measured on the stock's brins for the path's deepest cut (the tool's height where the path
// does not cut, or tilts the tool).
SimplifyReadout measure_simplification(const SimplifiedTool& t, const machining::Stock& s,
                                       const std::vector<machining::Position>& path);
void simplification_panel(const SimplifyReadout& r);
nlohmann::json to_json(const SimplifyReadout& r);
