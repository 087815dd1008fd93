// How the GPU engines cut a milling job into dispatches so that no shader invocation loops
// more than a bounded number of times, whatever the tool, stock and path (issue 13).
// Why: llvmpipe ends every invocation after 65 535 loop iterations in all (its loop
// limiter, shared by every loop of the shader), silently leaving brins uncut; and a
// display's watchdog (Abecassis 2012, SIMSURF, ch. 4) kills a dispatch that runs too long.
// Each engine keeps its own way of sharing the work (per position, per triangle, per pair,
// persistent threads, per brin); only how much of it one invocation takes is bounded.
#pragma once
#include "compute/machining/zbuffer.h"

#include <cstdint>
#include <vector>

namespace machining {

// A budget well under llvmpipe's 65 535, counting every loop's iterations generously.
constexpr uint64_t kLoopBudget = 16384;
// At most this many workgroups a dispatch (so grid-stride loops run once).
constexpr uint64_t kMaxGroups = 65535;

struct Dispatch {
  uint32_t tri_first = 0, tri_count = 0, pos_first = 0, pos_count = 0;
  uint32_t slice = 0;                       // of each triangle's brin rows
  uint32_t brin_first = 0, brin_count = 0;  // the per-brin engine
  uint32_t groups = 1;                      // workgroups of WorkPlan's size
};

struct WorkPlan {
  uint32_t slice_rows = 0;            // brin rows of a triangle one invocation rasterizes
  uint32_t per_take = 32, takes = 1;  // persistent threads
  uint64_t loop_bound = 0;            // the most loop iterations any invocation can run
  uint32_t parts = 1;                 // the granularity factor G the position and triangle engines take
  std::vector<Dispatch> dispatches;
};

// The most brins along x or y under one triangle of the tool, at any rotation (its bounding
// box is no wider than its longest edge), for brins d apart.
uint32_t brins_across(const Mesh& tool, float d);

// Positions [first, first + count) of a path milled by a compute engine, in workgroups of
// `group` invocations; the position engine shares a position's triangles among G = `parts`
// threads, the triangle engine a triangle's positions (seed 003 §6.4.3).
WorkPlan plan_work(Engine e, uint32_t triangles, uint32_t first, uint32_t count, uint32_t brins, uint32_t across,
                   uint64_t budget = kLoopBudget, uint32_t parts = 1, uint32_t group = 64);

}  // namespace machining
