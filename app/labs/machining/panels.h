// The machining lab's panel sections that only read: SIMSURF §5.5's memory formulas beside what
// the lab holds, and what the display compares (single - double, or another engine) with its
// histogram.
#pragma once
#include "app/labs/machining/params.h"
#include "app/labs/machining/shadow.h"
#include "app/widgets/table.h"
#include "compute/machining/stats.h"
#include "compute/machining/torn.h"
#include "compute/machining/zbuffer.h"

#include <string>

void memory_panel(const machining::Machine& machine);
// SIMSURF §16.4.3's statistics: the tool (box, triangles, their size, memory), the path (kind,
// positions, travel, memory), the stock (brins, spacing, origin, memory) and the accelerator (what
// Vulkan reports of it), as a table: the panel's "Statistics" header, --plot and the dump.
TableData statistics_table(const gpu::Context& ctx, const machining::Machine& machine, const std::string& path_kind);
void statistics_panel(const TableData& statistics);
// `display` the display knob's; `shadow` the comparison run, if any, `done` positions milled here.
void comparison_panel(Display display, bool nbuffer, bool int64_atomics, const ShadowRun* shadow, size_t done,
                      const machining::UlpComparison& comparison, float field_range);
// SIMSURF §7.3.2: Race runs the torn-value race (compute/machining/torn.h) on this GPU and CPU
// and keeps its rows in `last`, shown under it.
void torn_panel(gpu::Context& ctx, std::vector<machining::TornRace>& last);
