// `vklab bench --lab machining --only 12`: the report's chapter 12, analytic tools against meshes:
// the five configurations of its table (§12.1.2) timed with the tool as its mesh and as its exact
// surface, on the fine engine and the CPU, and how far each mesh resolution's heights lie from
// the exact tool's. `--only 15.4.2` and `--only 15.5`: single precision against double, with and
// without `precise`.
#include "compute/machining/analytic.h"
#include "compute/machining/bench_seed.h"
#include "compute/machining/stats.h"

#include <array>
#include <chrono>
#include <cmath>

namespace machining {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Seed 003 §12.1.2: each configuration with its mesh tool, then with the tool as a primitive, ms,
// under its table's columns {Xeon X5650, Phenom 955, Quadro 4000, GTX 560 Ti}.
struct SeedToolTimes {
  const char* config;
  std::array<double, 4> mesh, primitive;
};
const SeedToolTimes kSeedTools[] = {{"spiral", {1050, 4634, 247, 105}, {34, 76, 11, 9}},
                                    {"volcano", {1071, 4584, 199, 85}, {44, 82, 13, 11}},
                                    {"downspiral", {270, 792, 48, 25}, {34, 92, 29, 18}},
                                    {"ebauche", {7791, 25160, 1546, 712}, {2670, 4327, 665, 333}},
                                    {"finition", {10542, 30603, 2361, 1187}, {3094, 4228, 2064, 1055}}};

// Wall-clock time of `run` (which mills from `start` into its argument), as time_cpu() takes it.
template <class Run>
void time_host(BenchRow& row, const std::vector<float>& start, Run run) {
  std::vector<double> ms;
  for (int r = 0; r < 3 && (ms.empty() || ms[0] < 3000); ++r) {
    std::vector<float> h = start;
    auto t0 = std::chrono::steady_clock::now();
    run(h);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  row.median_ms = gpu::median(ms);
  row.min_ms = *std::min_element(ms.begin(), ms.end());
  row.repeats = int(ms.size());
}

// How the mesh's heights lie against the exact tool's, over the brins either cut.
nlohmann::json height_error(const std::vector<float>& mesh, const std::vector<float>& exact, float top) {
  double worst = 0, mean = 0;
  uint64_t cut = 0, above = 0, below = 0;
  for (size_t i = 0; i < mesh.size(); ++i) {
    if (!(mesh[i] < top || exact[i] < top)) continue;
    ++cut;
    double e = double(mesh[i]) - double(exact[i]);
    above += e > 0, below += e < 0;
    worst = std::max(worst, std::fabs(e)), mean += std::fabs(e);
  }
  return {{"brins_cut", cut},
          {"brins_above_exact", above},
          {"brins_below_exact", below},
          {"max_abs", worst},
          {"mean_abs", cut ? mean / double(cut) : 0.0}};
}

// The tool setup() meshed, as its analytic twin (the quick bench scales it the same way).
AnalyticTool exact_tool(const SeedConfig& sc, bool quick) {
  return analytic_tool(sc.tool, sc.diameter * (quick ? sc.surface / 1024.0f * 8 : 1.0f));
}

}  // namespace

void bench_tools(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const uint32_t n = options.quick ? 64 : 1024;
  for (const auto& seed : kSeedTools) {
    if (options.quick && std::string(seed.config) != "spiral") continue;
    const SeedConfig& sc = seed_config(seed.config);
    auto su = setup(sc, options.quick, n);
    const auto& [path, tool, st, window] = *su;
    const AnalyticTool exact = exact_tool(sc, options.quick);
    const std::vector<float> flat(size_t(st.nx) * st.ny, st.top);
    std::vector<float> heights[2];  // mesh, analytic: the fine engine's
    for (Engine eng : {Engine::Fine, Engine::Cpu}) {
      if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
      const bool cpu = eng == Engine::Cpu;
      for (int model = 0; model < 2; ++model) {
        const bool analytic = model == 1;
        BenchRow row{.pass = "machining." + engine_names()[size_t(eng)] + (analytic ? ".analytic" : ".mesh"),
                     .size = "12 " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" +
                             (analytic ? std::string(sc.tool) : std::to_string(tool.triangles())),
                     .elements = uint64_t(path.size())};
        note_stand_in(row, sc);
        row.reference.update({{"section", "12"},
                              {"configuration", sc.name},
                              {"tool", sc.tool},
                              {"tool_model", analytic ? "analytic" : "mesh"},
                              {"triangles", analytic ? 0 : tool.triangles()}});
        if (!options.quick) {
          const auto& t = analytic ? seed.primitive : seed.mesh;
          seed_time(row,
                    cpu ? "Abecassis 2012 (SIMSURF) 12.1.2, its column Xeon X5650 (phenom_ms: Phenom 955)"
                        : "Abecassis 2012 (SIMSURF) 12.1.2, its column GTX 560 Ti (quadro_ms: Quadro 4000)",
                    cpu, cpu ? t[0] : t[3], {{cpu ? "phenom_ms" : "quadro_ms", cpu ? t[1] : t[2]}});
        }
        if (cpu) {
          time_host(row, flat, [&](std::vector<float>& h) {
            if (analytic)
              mill_analytic_cpu(st, h, exact, path);
            else
              mill_cpu(st, h, tool, path);
          });
        } else {
          Machine m(ctx, st, tool, path, analytic ? &exact : nullptr);
          auto t = time_path(ctx, m, eng, path.size(), analytic ? 1 : uint32_t(tool.triangles()), options.quick);
          row.set_times(t);
          heights[model] = m.heights();  // every run lowers to the same surface
          if (analytic) {                // the mesh row's heights against these
            auto error = height_error(heights[0], heights[1], st.top);
            row.reference["mesh_height_error"] = error;
            row.add_note("the mesh's heights within %.3g of these, mean %.3g", error["max_abs"].get<double>(),
                         error["mean_abs"].get<double>());
          }
        }
        rows.push_back(row);
      }
    }
  }
  // Each mesh resolution against the exact tool on the spiral (ball end) and the downspiral (cone).
  if (!BenchOptions::chosen(options.engines, "fine")) return;
  struct Sweep {
    const char* config;
    std::vector<uint32_t> triangles;
  };
  const Sweep sweeps[] = {{"spiral", {320, 1984, 12482}}, {"downspiral", {64, 256, 1024, 4096}}};
  for (const auto& sw : sweeps) {
    if (options.quick && std::string(sw.config) != "spiral") continue;
    const SeedConfig& sc = seed_config(sw.config);
    auto su = setup(sc, options.quick, n);
    const auto& [path, tool0, st, window] = *su;
    const AnalyticTool exact = exact_tool(sc, options.quick);
    Machine a(ctx, st, tool0, path, &exact);
    a.run(Engine::Fine);
    const auto ha = a.heights();
    for (uint32_t tris : sw.triangles) {
      Mesh tool = make_tool(sc.tool, 2 * exact.radius, tris);
      Machine m(ctx, st, tool, path);
      BenchRow row{.pass = "machining.fine.mesh",
                   .size = "12 resolution " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" +
                           std::to_string(tool.triangles()),
                   .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
      auto t = time_path(ctx, m, Engine::Fine, path.size(), uint32_t(tool.triangles()), options.quick);
      row.set_times(t);
      auto error = height_error(m.heights(), ha, st.top);
      row.reference = {{"section", "12"},
                       {"configuration", sc.name},
                       {"tool", sc.tool},
                       {"triangles", tool.triangles()},
                       {"height_error_vs_analytic", error}};
      row.add_note("heights within %.3g of the exact tool's, mean %.3g", error["max_abs"].get<double>(),
                   error["mean_abs"].get<double>());
      rows.push_back(row);
    }
  }
}

}  // namespace machining

namespace machining {

// Sections "15.4.2" and "15.5" (`--only 15.4.2`, `--only 15.5`): the fine engine in single precision,
// with `precise` (15.4.2) and without it, the driver's division and square root (15.5, fast math),
// timed on the report's configurations, each brin against the 64-bit CPU engine's heights as a
// histogram of float ulps (the report's figures 15.3 and 15.4; its fast math: up to 40 % faster,
// errors of 1 and 2 ulps). Section 15.4.2 also runs the intersection in the world frame (§15.3's
// unstable strategy, figure 15.3's other half), against the 64-bit heights in that frame.
void bench_precision(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  if (!BenchOptions::chosen(options.engines, "fine")) return;
  const uint32_t n = options.quick ? 64 : 1024;
  std::vector<std::string> configs = {"downspiral", "ebauche", "finition"};
  if (options.quick) configs = {"spiral"};
  for (const auto& name : configs) {
    const SeedConfig& sc = seed_config(name);
    auto su = setup(sc, options.quick, n);
    const auto& [path, tool, st, window] = *su;
    Stock st64 = st;
    st64.f64 = true;
    Machine m(ctx, st, tool, path);
    for (Frame frame : {Frame::Tool, Frame::World}) {
      const bool world = frame == Frame::World;
      if (world && !BenchOptions::chosen(options.only, "15.4.2")) continue;  // 15.5 is about the tool frame
      std::vector<double> exact(size_t(st.nx) * st.ny, double(st.top));
      mill_cpu(st64, exact, tool, path, 0, HitTest::Edge, frame);
      m.set_frame(frame);
      for (bool fast : {false, true}) {
        const char* section = fast ? "15.5" : "15.4.2";
        if (fast && (world || !BenchOptions::chosen(options.only, "15.5")))
          continue;  // 15.5 compares with the precise row
        m.set_fast_math(fast);
        BenchRow row{.pass = std::string("machining.fine.") + (fast ? "fast" : "precise") + (world ? ".world" : ""),
                     .size = std::string(section) + " " + name + " " + std::to_string(path.size()) + "x" +
                             std::to_string(tool.triangles()),
                     .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
        auto t = time_path(ctx, m, Engine::Fine, path.size(), uint32_t(tool.triangles()), options.quick);
        row.set_times(t);
        auto c = compare_ulps(m.heights(), exact);
        note_stand_in(row, sc);
        row.reference.update(
            {{"section", section},
             {"configuration", name},
             {"arithmetic", fast ? "fast" : "precise"},
             {"frame", frame_names()[size_t(frame)]},
             {"against", std::string("the CPU engine in double (64-bit brins, SIMSURF (Abecassis 2012) §15.4.1), ") +
                             (world ? "world" : "tool") + " frame"}});
        row.reference.update(to_json(c));
        row.add_note("%s%llu brins unlike double, max %.3g ulps, mean %.3g", world ? "world frame (15.3): " : "",
                     (unsigned long long)c.differing, c.max_ulps, c.mean_abs_ulps);
        if (fast && !options.quick)
          row.reference["report"] = {{"device", "Abecassis 2012 (SIMSURF) 15.5: configuration not named by the report"},
                                     {"flag", "-use_fast_math"},
                                     {"slower_without", "up to 40 %"},
                                     {"errors_ulps", "1 and 2"}};
        rows.push_back(row);
      }
    }
  }
}

}  // namespace machining
