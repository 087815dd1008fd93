// The simplified tool (SIMSURF §12.1.1, meshoptimizer's edge collapse): at most the target's
// triangles, a valid closed mesh, a machined surface within the measured bound of the
// unsimplified tool's (CPU and GPU alike), the knob headless, bad targets refused with a reason,
// and the bench's figure 12.1 section.
#include "compute/machining/simplify.h"
#include "app/core/lab.h"
#include "app/core/params.h"
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>

using namespace machining;

namespace {

class MachiningSimplify : public GpuTest {};

// Every edge of a closed, consistently oriented mesh is walked once each way.
size_t simplify_test_open_edges(const IndexedMesh& m) {
  std::map<std::pair<uint32_t, uint32_t>, int> walked;
  for (size_t t = 0; t < m.triangles(); ++t)
    for (int k = 0; k < 3; ++k) ++walked[{m.indices[3 * t + k], m.indices[3 * t + (k + 1) % 3]}];
  size_t open = 0;
  for (auto& [e, n] : walked) open += n != 1 || walked.count({e.second, e.first}) == 0;
  return open;
}

}  // namespace

TEST(MachiningSimplifyMesh, AtMostTheTargetValidAndClosed) {
  struct Case {
    const char* shape;
    uint32_t triangles, target;
  };
  for (const Case& c : {Case{"torus", 2000, 1500}, Case{"torus", 2000, 200}, Case{"sphere", 1984, 1000},
                        Case{"sphere", 320, 40}, Case{"cone", 64, 20}, Case{"flat", 128, 24}}) {
    SCOPED_TRACE(std::string(c.shape) + " to " + std::to_string(c.target));
    const Mesh tool = make_tool(c.shape, 6.0f, c.triangles);
    ASSERT_EQ(simplify_test_open_edges(weld_mesh(tool, 1e-5f)), 0u) << "the generated tool is closed";
    const Simplification s = simplify_tool(tool, c.target);
    const IndexedMesh& m = s.indexed;
    EXPECT_EQ(s.before, tool.triangles());
    ASSERT_LE(m.triangles(), c.target);
    EXPECT_GE(m.triangles(), c.target * 8 / 10) << "the edge collapse stopped far short";
    ASSERT_EQ(s.mesh.triangles(), m.triangles());
    for (size_t t = 0; t < m.triangles(); ++t) {
      uint32_t a = m.indices[3 * t], b = m.indices[3 * t + 1], cc = m.indices[3 * t + 2];
      ASSERT_LT(std::max({a, b, cc}), m.positions.size()) << "triangle " << t;
      ASSERT_TRUE(a != b && b != cc && a != cc) << "triangle " << t;
      glm::vec3 n = glm::cross(m.positions[b] - m.positions[a], m.positions[cc] - m.positions[a]);
      ASSERT_GT(glm::length(n), 0.0f) << "triangle " << t;
      for (int k = 0; k < 3; ++k) ASSERT_EQ(s.mesh.vertices[3 * t + k], m.positions[m.indices[3 * t + k]]);
    }
    EXPECT_EQ(simplify_test_open_edges(m), 0u) << "the simplified tool stays closed";
    // the vertices are the tool's own (an edge collapse moves none), so it stays inside its box
    for (const glm::vec3& p : m.positions) {
      ASSERT_TRUE(glm::all(glm::greaterThanEqual(p, tool.lo())) && glm::all(glm::lessThanEqual(p, tool.hi())));
    }
    EXPECT_GT(s.estimate, 0.0);
  }
}

TEST(MachiningSimplifyMesh, BadTargetsAreRefusedWithTheReason) {
  const Mesh tool = make_tool("sphere", 6.0f, 320);
  try {
    simplify_tool(tool, 321);
    FAIL() << "more triangles than the tool has";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 320"), std::string::npos) << e.what();
  }
  try {
    simplify_tool(tool, 3);
    FAIL() << "fewer than a closed solid";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("at least 4"), std::string::npos) << e.what();
  }
  EXPECT_EQ(simplify_tool(tool, 320).mesh.triangles(), 320u) << "the tool's own count keeps every triangle";
}

// A 3-axis path whose tips lie on the brin grid: every offset a brin sees is one the tool error
// sampled, so the heights differ by at most that error (CPU engine), and the GPU's fine engine
// gives the CPU's heights with the simplified tool.
TEST_F(MachiningSimplify, SurfaceStaysWithinTheMeasuredToolError) {
  const Mesh tool = make_tool("sphere", 6.0f, 1984);
  const Simplification s = simplify_tool(tool, 150);
  Stock st;
  st.nx = st.ny = 96, st.d = 0.125f, st.x0 = -1.0f, st.y0 = 0.5f;  // multiples of the spacing
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> grid(8, 88);
  std::uniform_real_distribution<float> depth(0.25f, 1.0f);
  std::vector<Position> path(60);
  for (auto& p : path) p.tip = {st.x0 + float(grid(rng)) * st.d, st.y0 + float(grid(rng)) * st.d, -depth(rng)};
  const ToolHeightError bound = tool_height_error(tool, s.mesh, st.d, 1.0f);
  ASSERT_GT(bound.samples, 900u);  // a disc of radius sqrt(1 · 5) at 8 samples a unit
  ASSERT_GT(bound.max_abs, 0.0) << "150 triangles cannot match 1984 everywhere";
  ASSERT_LT(bound.max_abs, 0.5) << "a ball of 3 kept within half a unit";
  std::vector<float> h0(size_t(st.nx) * st.ny, 0.0f), h1 = h0;
  mill_cpu(st, h0, tool, path);
  mill_cpu(st, h1, s.mesh, path);
  double worst = 0;
  size_t cut = 0;
  for (size_t i = 0; i < h0.size(); ++i) {
    cut += h0[i] < 0;
    worst = std::max(worst, std::fabs(double(h0[i]) - double(h1[i])));
  }
  ASSERT_GT(cut, 2000u) << "the path should cut";
  EXPECT_GT(worst, 0.0) << "the simplified tool should leave other heights";
  EXPECT_LE(worst, bound.max_abs + 1e-5) << "the machined surface strays beyond the tool's measured error";

  Machine m(ctx(), st, s.mesh, path);
  m.run(Engine::Fine);
  auto gpu = m.heights();
  for (size_t i = 0; i < gpu.size(); ++i) ASSERT_NEAR(gpu[i], h1[i], m.exact_division() ? 0.0f : 2e-6f) << "brin " << i;
}

// The knob as the window changes it: the lab rebuilt with the simplified tool, then a bad target
// refused with the reason while the lab keeps the tool it had (the window says it and runs on).
TEST_F(MachiningSimplify, TheKnobRebuildsTheLabAndABadTargetKeepsItRunning) {
  auto lab = make_lab("machining");
  for (auto [name, value] : {std::pair{"stock_size", "32"},
                             {"path_positions", "50"},
                             {"tool_shape", "torus"},
                             {"tool_triangles", "2000"},
                             {"tool_simplify", "600"}})
    lab->params().set(name, value);
  lab->build(ctx());
  auto state = lab->dump(scratch("machining-simplify-knob"));
  EXPECT_LE(state["triangles"].get<size_t>(), 600u);
  EXPECT_EQ(state["tool_simplification"]["triangles_before"], 2000);
  lab->params().set("tool_simplify", "2500");
  try {
    lab->build(ctx());
    FAIL() << "2500 is more than the tool's 2000 triangles";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("tool_simplify=2500"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than the 2000"), std::string::npos) << e.what();
  }
  EXPECT_EQ(lab->dump(scratch("machining-simplify-kept"))["triangles"], state["triangles"]);
  lab->params().set("tool_simplify", "0");
  lab->build(ctx());
  EXPECT_EQ(lab->dump(scratch("machining-simplify-none"))["triangles"], 2000);
}

// The real window under Xvfb with a simplified tool: it mills and draws, validation silent.
TEST(Window, MachiningDrawsWithASimplifiedTool) {
  if (run_process("command -v xvfb-run").code != 0) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = scratch("machining-simplify-window") / "w.png";
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --lab machining --set tool_shape=torus --set tool_triangles=2000 "
                       "--set tool_simplify=300 --set stock_size=96 --set path_positions=600 "
                       "--set positions_per_frame=60 --frames 15 --size 900x600 --capture " +
                       png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t cut = 0;  // warm depth-of-cut colours
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) { cut += p[0] > 150 && p[2] < 120; });
  EXPECT_GT(cut, 2000u) << "the milled spiral";
}

// The knob headless: the tool simplified, the dump saying how; bad targets end the run with a reason.
TEST(Cli, MachiningToolSimplifyKnobHeadlessAndBadTargets) {
  auto dir = scratch("machining-simplify");
  const std::string base =
      "--headless --validate --lab machining --set tool_shape=torus --set tool_triangles=2000 --set stock_size=64 "
      "--set path_positions=200 --set positions_per_frame=100 --steps 2 ";
  auto r = run_process(vklab_args(base + "--set tool_simplify=500 --dump " + (dir / "a").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto j = nlohmann::json::parse(std::ifstream(dir / "a" / "params.json"))["state"];
  EXPECT_LE(j["triangles"].get<size_t>(), 500u);
  EXPECT_GE(j["triangles"].get<size_t>(), 400u);
  auto& s = j["tool_simplification"];
  EXPECT_EQ(s["triangles_before"], 2000);
  EXPECT_EQ(s["triangles_after"], j["triangles"]);
  EXPECT_GT(s["tool_height_error"]["max_abs"].get<double>(), 0.0);
  EXPECT_GT(s["fragments_after"]["mean_cells"].get<double>(), s["fragments_before"]["mean_cells"].get<double>())
      << "fewer, larger triangles: larger fragments";
  EXPECT_EQ(j["positions_done"], 200);

  r = run_process(vklab_args(base + "--dump " + (dir / "b").string()));  // 0: the tool as loaded
  ASSERT_EQ(r.code, 0) << r.err;
  auto k = nlohmann::json::parse(std::ifstream(dir / "b" / "params.json"))["state"];
  EXPECT_EQ(k["triangles"], 2000);
  EXPECT_TRUE(k["tool_simplification"].is_null());

  r = run_process(vklab_args(base + "--set tool_simplify=-5"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("tool_simplify"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("outside"), std::string::npos) << r.err;
  r = run_process(vklab_args(base + "--set tool_simplify=5000"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("more than the 2000"), std::string::npos) << r.err;
}

// Section 12.1.1 (figure 12.1): each tool's sweep timed on every engine, the counts within the
// targets, the unsimplified rows' heights their own, the simplified ones' measured.
TEST(Cli, MachiningBenchSection1211SweepsSimplifiedTools) {
  auto dir = scratch("machining-1211");
  auto r = run_process(
      vklab_args("bench --lab machining --quick --only 12.1.1 --validate --out " + (dir / "s.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "s.json"))["labs"]["machining"];
  std::set<std::string> passes;
  std::map<std::string, std::set<uint64_t>> counts;  // tool -> triangle counts
  for (auto& row : rows) {
    auto& ref = row["reference"];
    EXPECT_EQ(ref["section"], "12.1.1") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    passes.insert(row["pass"].get<std::string>());
    uint64_t target = ref["target"], tris = ref["triangles"];
    counts[ref["tool"].get<std::string>()].insert(tris);
    if (target) {
      EXPECT_LE(tris, target) << row.dump();
    }
    double surface = ref["surface_height_error"]["max_abs"];
    if (target == 0) {
      EXPECT_EQ(surface, 0.0) << row.dump();
    }
    if (target) {
      EXPECT_GT(surface, 0.0) << row.dump();
    }
    EXPECT_GT(ref["fragments"]["total_cells"].get<uint64_t>(), 0u) << row.dump();
  }
  EXPECT_EQ(passes, (std::set<std::string>{"machining.position.simplified", "machining.triangle.simplified",
                                           "machining.fine.simplified", "machining.hardware.simplified"}));
  EXPECT_EQ(counts["torus"].size(), 3u);
  EXPECT_EQ(counts["sphere"].size(), 2u);
}
