#include "app/labs/machining/panels.h"

#include "app/widgets/plot.h"

#include <imgui.h>

#include <cstdio>

using namespace machining;

// SIMSURF §5.5's memory formulas for this stock, tool and path, beside what this lab holds.
void memory_panel(const Machine& machine) {
  if (!ImGui::CollapsingHeader("Memory (SIMSURF 5.5)")) return;
  const auto& s = machine.stock();
  const double S = s.f64 ? 8 : 4, N2 = double(s.nx) * s.ny, T = double(machine.triangles());
  const double P = double(machine.positions());
  bool five = false, spin = false;
  for (const auto& p : machine.path()) five |= p.axis != glm::vec3(0, 0, 1), spin |= p.omega != 0;
  const double p = (five ? 6 : 3) * S + (spin ? S : 0);
  auto mib = [](double bytes) { return bytes / (1 << 20); };
  ImGui::TextWrapped(
      "grid S N^2 = %.3g MiB (S = %g bytes a height); tool T (9 S + padding) = %.3g MiB (a triangle "
      "list, %g bytes a triangle); path P p = %.3g MiB (p = %g bytes a position: %s%s)",
      mib(S * N2), S, mib(9 * S * T), 9 * S, mib(P * p), p, five ? "tip and axis" : "tip",
      spin ? ", spindle angle" : "");
  ImGui::TextWrapped(
      "held here: heights %.3g MiB%s, triangles %.3g MiB (a vec4 a vertex), positions %.3g MiB (64 "
      "bytes: tip, rotation rows, the placed tool's box)",
      mib(S * N2), s.f64 ? " + 32-bit keys for the picture" : "", mib(48 * T), mib(64 * P));
  if (s.nbuffer)
    ImGui::TextWrapped(
        "N-buffer (5.3): + a ray a brin, its normal and the surface's height (16 bytes), %.3g MiB, "
        "and 32-bit keys for the picture",
        mib(16 * N2));
  const MeshMemory mm = mesh_memory(machine.tool(), S);  // §5.5.3, indexed geometry
  ImGui::TextWrapped(
      "the tool indexed (5.5.3): %zu distinct vertices for %zu triangles, 3 S V + 12 T = %.4g KiB (%.4g KiB with "
      "16-bit indices) against the list's %.4g KiB; the report's text, T + 2 vertices (a strip): %.4g KiB; its "
      "formula 5.5 as printed, 2 + T + 3 S T = %.4g bytes (a misprint: no vertex size, no index bytes)",
      mm.vertices, mm.triangles, mm.indexed / 1024, mm.indexed16 / 1024, mm.list / 1024, mm.text / 1024, mm.printed);
}

TableData statistics_table(const gpu::Context& ctx, const Machine& machine, const std::string& path_kind) {
  TableData t{"machining-statistics", "Statistics (Abecassis 2012, SIMSURF §16.4.3)", {"of", "what", "value"}};
  auto add = [&](const char* of, const char* what, const char* format, auto... values) {
    char v[160];
    std::snprintf(v, sizeof v, format, values...);
    t.rows.push_back({of, what, v});
  };
  auto mib = [](double bytes) { return bytes / (1 << 20); };
  const ToolStats tool = tool_stats(machine.tool());
  add("tool", "triangles", "%zu (%.3g MiB as 9 floats each)", tool.triangles, mib(double(tool.bytes)));
  add("tool", "bounding box", "(%.4g, %.4g, %.4g) to (%.4g, %.4g, %.4g)", tool.lo.x, tool.lo.y, tool.lo.z, tool.hi.x,
      tool.hi.y, tool.hi.z);
  add("tool", "triangle edges", "mean %.4g, from %.4g to %.4g", tool.mean_edge, tool.min_edge, tool.max_edge);
  add("tool", "triangle area", "mean %.4g", tool.mean_area);
  const PathStats path = path_stats(machine.path());
  add("path", "kind", "%s, %s%s", path_kind.c_str(), path.five_axis ? "5 axes" : "3 axes",
      path.spindle ? ", spindle angle" : "");
  add("path", "positions", "%zu (%.3g MiB as %s floats each)", path.positions, mib(double(path.bytes)),
      path.five_axis ? (path.spindle ? "7" : "6") : (path.spindle ? "4" : "3"));
  add("path", "tip travel", "%.5g", path.travel);
  add("path", "tip's box", "(%.4g, %.4g, %.4g) to (%.4g, %.4g, %.4g)", path.lo.x, path.lo.y, path.lo.z, path.hi.x,
      path.hi.y, path.hi.z);
  const Stock& s = machine.stock();
  const double S = s.f64 ? 8 : 4;
  add("stock", "brins", "%u x %u, %.4g apart", s.nx, s.ny, double(s.d));
  add("stock", "origin", "(%.6g, %.6g), top %.5g", double(s.x0), double(s.y0), double(s.top));
  add("stock", "heights", "%.3g MiB (%s)", mib(S * s.nx * s.ny), s.f64 ? "double" : "single");
  add("accelerator", "device", "%s (%s), driver %s, Vulkan %s", ctx.info.name.c_str(), ctx.info.type.c_str(),
      ctx.info.driver.c_str(), ctx.info.api.c_str());
  add("accelerator", "device-local memory", "%llu MiB", (unsigned long long)ctx.info.device_local_mib);
  const auto& l = ctx.props.limits;
  add("accelerator", "a workgroup", "up to %u invocations, %u KiB shared memory", l.maxComputeWorkGroupInvocations,
      l.maxComputeSharedMemorySize / 1024);
  add("accelerator", "subgroup", "%u lanes", ctx.info.subgroup_size);
  add("accelerator", "a storage buffer", "up to %.4g MiB", mib(double(l.maxStorageBufferRange)));
  add("accelerator", "arithmetic", "fp64 %s, 64-bit atomics %s", ctx.info.fp64 ? "yes" : "no",
      ctx.int64_atomics ? "yes" : "no");
  add("accelerator", "timestamps", "%s, %.4g ns a tick", ctx.info.timestamps ? "yes" : "no", double(l.timestampPeriod));
  t.rows.push_back({"accelerator", "watchdog, ECC",
                    "not reported by Vulkan (the report read them from CUDA): a display GPU's driver still ends work "
                    "that runs too long; see Partition"});
  t.sentences = 2;
  return t;
}

void statistics_panel(const TableData& statistics) {
  if (!ImGui::CollapsingHeader("Statistics (SIMSURF §16.4.3)")) return;
  table(statistics);
}

// What the display shows, in words, and the comparison's histogram.
void comparison_panel(Display display, bool nbuffer, bool int64_atomics, const ShadowRun* shadow, size_t done,
                      const UlpComparison& comparison, float field_range) {
  if (display == Display::Laplacian)
    ImGui::TextWrapped("colour: the Laplacian of the heights, +-%.3g (99 %% of the brins): scallops and ridges",
                       field_range);
  if (display != Display::Error && display != Display::Engines) return;
  if (display == Display::Error && nbuffer) {
    ImGui::TextWrapped("the N-buffer is single precision: no double run to compare with");
    return;
  }
  if (display == Display::Error && !int64_atomics) {
    ImGui::TextWrapped("single - double needs 64-bit atomics, which this device lacks");
    return;
  }
  if (!shadow || shadow->done() != done || comparison.ulps.empty()) {
    ImGui::TextWrapped("comparison run catching up: %zu of %zu positions", shadow ? shadow->done() : 0, done);
    return;
  }
  ImGui::TextWrapped("%s: %llu of %zu brins differ; max %.3g ulps (%.3g in length), mean %.3g ulps; colour +-%.3g ulps",
                     display == Display::Error ? "single - double precision" : ("this run - " + shadow->kind()).c_str(),
                     (unsigned long long)comparison.differing, comparison.ulps.size(), comparison.max_ulps,
                     comparison.max_abs, comparison.mean_abs_ulps, field_range);
  std::vector<double> bins(comparison.histogram.begin(), comparison.histogram.end());
  plot({"machining-ulps", "ulps, rounded (ends: beyond -8 and 8)", "brins", false, 90}, {}, bins);
}

void torn_panel(gpu::Context& ctx, std::vector<machining::TornRace>& last) {
  if (!ImGui::CollapsingHeader("A 64-bit value in two halves (SIMSURF 7.3.2)")) return;
  ImGui::TextWrapped(
      "A double may be written and read as two 32-bit halves: a reader between a writer's two writes sees the high "
      "half of one value and the low half of another, a number no thread wrote. Race: writers and readers on %u "
      "slots, the halves apart, then whole (a 64-bit store, an atomic), on this GPU and this CPU.",
      machining::TornConfig{}.slots);
  if (ImGui::Button("Race")) {
    last = machining::torn_races_gpu(ctx, {});
    for (auto& r : machining::torn_races_cpu(machining::TornConfig{}.slots, 2, 20000)) last.push_back(r);
  }
  if (last.empty() || !ImGui::BeginTable("torn", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {"where, form", "reads torn", "slots torn", "ms"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& r : last) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s, %s", r.gpu ? "GPU" : "CPU", r.form.c_str());
    ImGui::TableNextColumn();
    if (!r.skipped.empty()) {
      ImGui::TextDisabled("%s", r.skipped.c_str());
      continue;
    }
    ImGui::Text("%llu of %llu", (unsigned long long)r.torn_reads, (unsigned long long)r.reads);
    ImGui::TableNextColumn();
    ImGui::Text("%llu", (unsigned long long)r.torn_slots);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.ms);
  }
  ImGui::EndTable();
}
