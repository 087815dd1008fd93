// `vklab bench --lab machining --only 12.1.1`: the report's figure 12.1 (Abecassis 2012, SIMSURF
// §12.1.1), GPU time against the tool's triangle count as the tool is simplified by edge
// collapse, for a ball end and a bull nose, with what figure 12.2 blames for the bull nose's peak:
// each simplified mesh's fragments (a triangle's box of brins, every one tested) against the brins
// inside the triangles. Both tools run ébauche's zigzag (our stand-in for the report's roughing),
// the bull nose its 25 904-triangle torus, the ball finition's 12 482-triangle sphere; every row
// compares its heights with the same engine's using the unsimplified tool.
#include "compute/machining/bench_seed.h"
#include "compute/machining/simplify.h"
#include "compute/machining/stats.h"

#include <cmath>

namespace machining {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

struct SimplifySweep {
  const char* tool;
  uint32_t triangles;
  std::vector<uint32_t> targets;  // 0: the tool as generated
};

// Heights against the unsimplified tool's, over the brins either cut.
nlohmann::json simplified_surface_error(const std::vector<float>& h, const std::vector<float>& h0, float top) {
  double worst = 0, mean = 0;
  uint64_t cut = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    if (!(h[i] < top || h0[i] < top)) continue;
    ++cut;
    double e = std::fabs(double(h[i]) - double(h0[i]));
    worst = std::max(worst, e), mean += e;
  }
  return {{"brins_cut", cut}, {"max_abs", worst}, {"mean_abs", cut ? mean / double(cut) : 0.0}};
}

nlohmann::json fragments_json(const FragmentStats& f) {
  return {{"max_cells", f.max_cells}, {"mean_cells", f.mean_cells},     {"total_cells", f.total_cells},
          {"inside", f.inside},       {"inside_share", f.inside_share}, {"max_aspect", f.max_aspect},
          {"thin_triangles", f.thin}};
}

}  // namespace

void bench_simplify(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const uint32_t n = options.quick ? 64 : 1024;
  const SeedConfig& sc = seed_config("ebauche");
  const std::vector<SimplifySweep> sweeps =
      options.quick
          ? std::vector<SimplifySweep>{{"torus", 2000, {0, 1000, 300}}, {"sphere", 1984, {0, 500}}}
          : std::vector<SimplifySweep>{
                {"torus",
                 25904,
                 {0, 24000, 22000, 21000, 20000, 19000, 18000, 16000, 14000, 12000, 10000, 8000, 6000, 4000, 2000,
                  1000}},
                {"sphere", 12482, {0, 11000, 10000, 9000, 8000, 7000, 6000, 5000, 4000, 3000, 2000, 1000, 500}}};
  const Engine engines[] = {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Hardware};
  for (const auto& sw : sweeps) {
    auto su = setup(sc, options.quick, n);
    const auto& [path, ebauche_tool, st, window] = *su;
    const float diameter = sc.diameter * (options.quick ? sc.surface / 1024.0f * 8 : 1.0f);
    const Mesh base = make_tool(sw.tool, diameter, sw.triangles);
    float depth = 0;  // the path's deepest cut under the flat top
    for (const auto& p : path) depth = std::max(depth, st.top - p.tip.z);
    depth = std::min(depth, base.hi().z - base.lo().z);
    std::vector<std::vector<float>> unsimplified(std::size(engines));  // each engine's heights, target 0
    for (uint32_t target : sw.targets) {
      std::optional<Simplification> simplified;
      std::string refused;
      try {
        if (target) simplified = simplify_tool(base, target);
      } catch (const std::invalid_argument& e) {
        refused = e.what();
      }
      const Mesh& tool = simplified ? simplified->mesh : base;
      const FragmentStats frags = fragment_stats(tool, st.d);
      // sampled a quarter of a brin apart, as the panel does
      const ToolHeightError terr = tool_height_error(base, tool, st.d / 4, std::max(depth, 1e-6f));
      std::optional<Machine> m;
      if (refused.empty()) m.emplace(ctx, st, tool, path);
      for (size_t e = 0; e < std::size(engines); ++e) {
        const Engine eng = engines[e];
        if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
        BenchRow row{.pass = "machining." + engine_names()[size_t(eng)] + ".simplified",
                     .size = "12.1.1 " + std::string(sw.tool) + " " + std::to_string(path.size()) + "x" +
                             std::to_string(tool.triangles()),
                     .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
        row.reference["stand_in"] =
            "ebauche's generated zigzag (not the report's CATIA roughing program), a generated tool; the report "
            "does not say which path and tools its figure used";
        row.reference.update({{"section", "12.1.1"},
                              {"configuration", sc.name},
                              {"positions", path.size()},
                              {"brins", std::to_string(n) + "x" + std::to_string(n)},
                              {"spacing", st.d},
                              {"tool", sw.tool},
                              {"tool_diameter", diameter},
                              {"triangles_before", base.triangles()},
                              {"target", target},
                              {"triangles", tool.triangles()},
                              {"simplifier", "meshoptimizer 0.18 meshopt_simplify (quadric edge collapse)"},
                              {"fragments", fragments_json(frags)},
                              {"tool_height_error",
                               {{"max_abs", terr.max_abs},
                                {"mean_abs", terr.mean_abs},
                                {"spacing", terr.spacing},
                                {"depth", terr.depth},
                                {"against", "the unsimplified tool seen from below, upright"}}}});
        if (simplified)
          row.reference.update({{"simplify_ms", simplified->ms}, {"meshoptimizer_error", simplified->estimate}});
        if (!options.quick)
          row.reference["thesis"] = {
              {"device", "Abecassis 2012 (SIMSURF) figure 12.1, a plot without a table; its machine is not named"},
              {"reading",
               "time falls about linearly with triangles for the spherical tool; the toroidal one peaks near "
               "20 000 triangles (figure 12.2: long thin triangles over its flat bottom)"}};
        if (!refused.empty()) {
          row.reference["skipped"] = refused;
          rows.push_back(row);
          continue;
        }
        auto t = time_path(ctx, *m, eng, path.size(), uint32_t(tool.triangles()), options.quick);
        row.set_times(t);
        std::vector<float> h = m->heights();
        if (target == 0) unsimplified[e] = h;
        m->set_heights(std::vector<float>(h.size(), st.top));  // the next engine from a fresh stock
        if (!unsimplified[e].empty()) {
          auto err = simplified_surface_error(h, unsimplified[e], st.top);
          err["against"] = "this engine's heights with the unsimplified tool";
          row.reference["surface_height_error"] = err;
          row.add_note("heights within %.3g of the unsimplified tool's", err["max_abs"].get<double>());
        }
        row.add_note("largest fragment %llu brins, %.1f %% of tested brins inside their triangle",
                     (unsigned long long)frags.max_cells, 100 * frags.inside_share);
        rows.push_back(row);
      }
    }
  }
}

}  // namespace machining
