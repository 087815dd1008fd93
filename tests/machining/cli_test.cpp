// The machining lab from the command line: tools, paths and stocks from files, the dump against the CPU engine, bad
// files, the bench and its selection.
#include "compute/io/npy.h"
#include "compute/machining/nbuffer.h"
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cfloat>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

namespace fs = std::filesystem;

// The machining lab from the command line: generated tool and path, an STL tool and a
// positions file, the dump's heights against the CPU engine; a bad file ends the run with
// a message naming it and exit code 1.
TEST(Cli, MachiningHeadlessMillsGeneratedToolsAndPaths) {
  auto dir = scratch("machining");
  auto r =
      run_process(vklab_args("--headless --validate --lab machining --tool-shape sphere --path-gen spiral --set "
                             "stock_size=64 --set path_positions=300 --set positions_per_frame=100 --steps 5 "
                             "--size 320x240 --capture " +
                             (dir / "m.png").string() + " --dump " + (dir / "a").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "m.png"), 1000u);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "a" / "params.json"));
  EXPECT_EQ(j["state"]["positions_done"], 300);
  EXPECT_GT(j["state"]["removed_volume"].get<double>(), 0.0);
  // the spiral cuts 1 deep; a brin seldom lies under the very pole of the ball mesh
  EXPECT_NEAR(j["state"]["max_depth"].get<double>(), 1.0, 5e-3);
  // The same with the exact ball (seed 003 ch. 12): deeper than its mesh, within a brin's reach of 1.
  r = run_process(vklab_args(
      "--headless --validate --lab machining --tool-shape sphere --path-gen spiral --set tool_model=analytic "
      "--set stock_size=64 --set path_positions=300 --set positions_per_frame=100 --steps 5 --dump " +
      (dir / "exact").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json e = nlohmann::json::parse(std::ifstream(dir / "exact" / "params.json"));
  EXPECT_EQ(e["state"]["tool_model"], "analytic");
  EXPECT_GE(e["state"]["max_depth"].get<double>(), j["state"]["max_depth"].get<double>());
  EXPECT_NEAR(e["state"]["max_depth"].get<double>(), 1.0, 2e-3);
  EXPECT_GT(e["state"]["removed_volume"].get<double>(), j["state"]["removed_volume"].get<double>());
}

// An STL tool (a flat end mill) on a straight pass from a positions file: a groove.
TEST(Cli, MachiningStlToolAndPositionsFileGiveTheCpuHeightsAndFinishAfterRoughing) {
  auto dir = scratch("machining-files");
  auto tool = machining::make_tool("flat", 4.0f, 128);
  machining::write_stl(dir / "flat.stl", tool);
  std::ofstream(dir / "pass.txt") << "# x y z\n4 8 -0.5\n12 8 -0.5\n";
  auto r = run_process(vklab_args("--headless --validate --lab machining --tool " + (dir / "flat.stl").string() +
                                  " --path " + (dir / "pass.txt").string() +
                                  " --set stock_size=64 --set spacing=0.25 --set engine=brin "
                                  "--steps 1 --dump " +
                                  (dir / "b").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<size_t> shape;
  auto h = read_npy(dir / "b" / "heights.npy", &shape);
  ASSERT_EQ(shape, (std::vector<size_t>{64, 64}));
  machining::Stock s;
  s.nx = s.ny = 64, s.d = 0.25f;
  std::vector<float> cpu(64 * 64, 0.0f);
  machining::mill_cpu(s, cpu, tool, machining::read_positions(dir / "pass.txt"));
  for (size_t i = 0; i < cpu.size(); ++i) ASSERT_NEAR(h[i], cpu[i], 1e-5f) << "brin " << i;
  EXPECT_FLOAT_EQ(h[32 * 64 + 16], -0.5f) << "the groove's floor";

  // Finishing after roughing: the second run starts from the first one's heights; and a
  // zoomed re-run (4x finer brins on the window at the centre) matches the CPU engine there.
  {
    std::ofstream finish(dir / "finish.txt");
    for (int k = 0; k <= 32; ++k) finish << 4 + 0.25 * k << " 8 -1\n";
  }
  r = run_process(
      vklab_args("--headless --validate --lab machining --path " + (dir / "finish.txt").string() +
                 " --set stock_size=64 --set spacing=0.25 --set stock_file=" + (dir / "b" / "heights.npy").string() +
                 " --set zoom=4 --set tool_diameter=2 --steps 1 --dump " + (dir / "c").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto zoomed = read_npy(dir / "c" / "heights.npy");
  machining::Stock z = s;
  z.d = 0.25f / 4;
  z.x0 = z.y0 = 0.5f * 63 * 0.25f - 0.5f * 63 * z.d;
  auto start = h;  // the stock_file: the groove from the previous run, now on the zoomed grid's indices
  std::vector<float> cpu2 = start;
  machining::mill_cpu(z, cpu2, machining::make_tool("sphere", 2.0f, 1984),
                      machining::read_positions(dir / "finish.txt"));
  for (size_t i = 0; i < cpu2.size(); ++i) ASSERT_NEAR(zoomed[i], cpu2[i], 1e-5f) << "zoomed brin " << i;
  size_t deeper = 0;
  for (size_t i = 0; i < h.size(); ++i) deeper += zoomed[i] < h[i] - 1e-4f;
  EXPECT_GT(deeper, 100u) << "the ball end should cut below the flat groove somewhere";
}

// Bad inputs: one line naming the file, exit code 1 (not a crash).
TEST(Cli, MachiningBadFilesEndTheRunWithTheirName) {
  auto dir = scratch("machining-bad");
  machining::write_stl(dir / "flat.stl", machining::make_tool("flat", 4.0f, 128));
  std::ofstream(dir / "bad.stl") << "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n";
  auto r = run_process(vklab_args("--headless --lab machining --tool " + (dir / "bad.stl").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.stl"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 4"), std::string::npos) << r.err;
  r = run_process(vklab_args("--headless --lab machining --set tool_model=analytic --tool " +
                             (dir / "flat.stl").string() + " --steps 1"));
  EXPECT_NE(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("an analytic tool is a generated shape"), std::string::npos) << r.err;
  r = run_process(vklab_args("--headless --lab machining --path " + (dir / "missing.nc").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing.nc"), std::string::npos) << r.err;
}

// The quick bench: every engine on two of the seed's configurations, and the 64-bit rows. The
// sections (5.3, 6.4.3, 7.5.4, 8.4, 12, 15.4.2 and 15.5) are left out here: each has its test below,
// which runs it with validation and checks its rows (the whole quick bench ran them all a second
// time: 7 of the 11 CPU seconds this test took on lavapipe).
TEST(Cli, MachiningQuickBenchHasEveryEngineAndItsSelection) {
  auto dir = scratch("machining-bench");
  auto r = run_process(
      vklab_args("bench --lab machining --quick --only spiral,single --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["machining"];
  ASSERT_GE(rows.size(), 14u);
  std::set<std::string> passes;
  for (auto& row : rows) {
    passes.insert(row["pass"].get<std::string>());
    if (!row["reference"].contains("skipped")) {
      EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    }
  }
  for (auto& e : machining::engine_names()) EXPECT_TRUE(passes.count("machining." + e)) << e;
  EXPECT_TRUE(passes.count("machining.fine.f64"));

  // Bench selection is a bench option: one configuration, two engines; unknown names refused.
  r = run_process(
      vklab_args("bench --lab machining --quick --only spiral --engines fine,cpu --out " + (dir / "c.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  rows = nlohmann::json::parse(std::ifstream(dir / "c.json"))["labs"]["machining"];
  std::set<std::string> picked;
  for (auto& row : rows) {
    picked.insert(row["pass"].get<std::string>());
    EXPECT_EQ(row["reference"]["configuration"], "spiral") << row.dump();
    if (row["pass"].get<std::string>().starts_with("machining.cpu")) {  // SIMSURF §13.1.2
      EXPECT_NE(row["reference"].value("cpu_cache", "").find("64 MiB"), std::string::npos) << row.dump();
    }
  }
  EXPECT_EQ(picked,
            (std::set<std::string>{"machining.fine", "machining.cpu", "machining.fine.f64", "machining.cpu.f64"}));
}

// Section 7.5.4 (seed 003 ch. 7): every way of lowering a brin on the rasterizing engines, single
// and double; the exact ones agree with atomicMin everywhere, the race is counted.
TEST(Cli, MachiningBenchSection754LowersEveryWay) {
  auto dir = scratch("machining-754");
  auto r = run_process(
      vklab_args("bench --lab machining --quick --only 7.5.4 --validate --out " + (dir / "d.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto d = nlohmann::json::parse(std::ifstream(dir / "d.json"));
  auto rows = d["labs"]["machining"];
  // lavapipe ends an invocation after 65 535 loop iterations: a lane spinning on a lock whose holder
  // was preempted (two tests at once on two cores) can lose its cut. machining_atomic_test.cpp shows
  // the lock exact (it runs such a case again); here a few such brins are let pass on lavapipe only.
  bool llvmpipe = d["device"]["name"].get<std::string>().find("llvmpipe") != std::string::npos;
  std::set<std::string> modes;
  for (auto& row : rows) {
    modes.insert(row["pass"].get<std::string>());
    EXPECT_EQ(row["reference"]["section"], "7.5.4") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    const std::string pass = row["pass"];
    if (pass.find(".none") == std::string::npos && pass.find("cpu") == std::string::npos) {
      if (llvmpipe && pass.find(".lock") != std::string::npos) {
        EXPECT_LE(row["reference"]["brins_unlike_atomicmin"].get<int>(), 16) << row.dump();
      } else {
        EXPECT_EQ(row["reference"]["brins_unlike_atomicmin"], 0) << row.dump();
      }
    }
  }
  for (const char* e : {"position", "triangle", "fine", "persistent"})
    for (auto& a : machining::atomic_names())
      EXPECT_TRUE(modes.count("machining." + std::string(e) + "." + a)) << e << a;
  EXPECT_TRUE(modes.count("machining.cpu"));
  EXPECT_TRUE(modes.count("machining.fine.lock.f64"));
}

// Section 8.4 (seed 003 ch. 8): the three brin-triangle tests timed on the fine engine and the CPU,
// then each one's correctly rounded brins on the downspiral against the 64-bit heights.
TEST(Cli, MachiningBenchSection84TimesTheThreeTests) {
  auto dir = scratch("machining-84");
  auto r =
      run_process(vklab_args("bench --lab machining --quick --only 8.4 --validate --out " + (dir / "e.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "e.json"))["labs"]["machining"];
  std::set<std::string> tests;
  for (auto& row : rows) {
    EXPECT_EQ(row["reference"]["section"], "8.4") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    tests.insert(row["pass"].get<std::string>() + " " + row["reference"]["configuration"].get<std::string>());
    if (row["reference"].contains("brins_correctly_rounded")) {
      EXPECT_GT(row["reference"]["brins_cut"].get<uint64_t>(), 300u) << row.dump();
      EXPECT_GT(row["reference"]["brins_correctly_rounded"].get<uint64_t>(), 0u) << row.dump();
      EXPECT_LE(row["reference"]["brins_correctly_rounded"], row["reference"]["brins_cut"]) << row.dump();
      EXPECT_LT(row["reference"]["mean_ulps"].get<double>(), 4.0) << row.dump();
    }
  }
  for (auto& t : machining::hit_test_names()) {
    EXPECT_TRUE(tests.count("machining.fine." + t + " spiral")) << t;
    EXPECT_TRUE(tests.count("machining.cpu." + t + " spiral")) << t;
    EXPECT_TRUE(tests.count("machining.fine." + t + " downspiral")) << t;
  }
}

// Section 12 (seed 003 ch. 12): the tool as its mesh and as its exact surface, timed; each mesh
// resolution's heights against the exact tool's, closer at each finer mesh.
TEST(Cli, MachiningBenchSection12ComparesMeshAndExactTools) {
  auto dir = scratch("machining-12");
  auto r =
      run_process(vklab_args("bench --lab machining --quick --only 12 --validate --out " + (dir / "f.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "f.json"))["labs"]["machining"];
  std::set<std::string> models;
  std::vector<double> errors;  // the resolution rows', coarse to fine
  for (auto& row : rows) {
    EXPECT_EQ(row["reference"]["section"], "12") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    models.insert(row["pass"].get<std::string>());
    if (row["size"].get<std::string>().find("resolution") != std::string::npos) {
      auto& e = row["reference"]["height_error_vs_analytic"];
      EXPECT_GT(e["brins_cut"].get<uint64_t>(), 200u) << row.dump();
      errors.push_back(e["max_abs"].get<double>());
    }
  }
  EXPECT_EQ(models, (std::set<std::string>{"machining.fine.mesh", "machining.fine.analytic", "machining.cpu.mesh",
                                           "machining.cpu.analytic"}));
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_GT(errors[0], errors[1]);
  EXPECT_GT(errors[1], errors[2]);
  EXPECT_GT(errors[2], 0.0);
}

// Sections 15.4.2 and 15.5: single precision with and without `precise` against the 64-bit heights,
// and 15.4.2 again with the intersection in the world frame (§15.3, unstable): measured on
// lavapipe, its error a mean of 0.278 ulps against the tool frame's 0.0182, at worst 47.1 against 1.16.
TEST(Cli, MachiningBenchSection155ComparesPrecision) {
  auto dir = scratch("machining-155");
  auto r = run_process(
      vklab_args("bench --lab machining --quick --only 15.4.2,15.5 --validate --out " + (dir / "g.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "g.json"))["labs"]["machining"];
  std::set<std::string> arithmetic;
  std::map<std::string, nlohmann::json> precise;  // by frame
  for (auto& row : rows) {
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    auto& ref = row["reference"];
    const bool world = ref["frame"] == "world";
    if (!world) arithmetic.insert(ref["arithmetic"].get<std::string>());
    if (ref["arithmetic"] == "precise") precise[ref["frame"].get<std::string>()] = ref;
    auto bins = ref["histogram_ulps"].get<std::vector<uint64_t>>();
    EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), uint64_t(0)), 64u * 64u) << row.dump();
    EXPECT_GT(ref["brins_differing"].get<uint64_t>(), 0u) << row.dump();
    if (!world) {
      EXPECT_LT(ref["max_ulps"].get<double>(), 16.0) << row.dump();
    }
  }
  EXPECT_EQ(arithmetic, (std::set<std::string>{"precise", "fast"}));
  ASSERT_EQ(precise.size(), 2u) << "a precise row in each frame";
  EXPECT_GT(precise["world"]["mean_abs_ulps"].get<double>(), 4 * precise["tool"]["mean_abs_ulps"].get<double>());
  EXPECT_GT(precise["world"]["max_ulps"].get<double>(), 10 * precise["tool"]["max_ulps"].get<double>());
}

// The lab's single - double map (display=error) with the intersection in the world frame and in
// the tool frame (SIMSURF §15.3): the preset machining/unstable-intersection on a smaller stock,
// the whole path. The double run of the map follows the lab's frame, and the map shows the world
// frame's error: measured on lavapipe, a mean of 2.56 ulps against 0.85, at worst 39.6 against 15.9.
TEST(Cli, MachiningErrorMapShowsTheWorldFramesInstability) {
  auto dir = scratch("machining-frame");
  std::map<std::string, nlohmann::json> state;
  for (const char* frame : {"world", "tool"}) {
    auto r = run_process(vklab_args(std::string("--headless --validate --preset machining/unstable-intersection ") +
                                    "--set frame=" + frame +
                                    " --set stock_size=64 --set zoom_x=0.9 --set path_positions=20000 "
                                    "--set positions_per_frame=10000 --steps 2 --dump " +
                                    (dir / frame).string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    state[frame] = nlohmann::json::parse(std::ifstream(dir / frame / "params.json"))["state"];
    EXPECT_EQ(state[frame]["frame"], frame);
    EXPECT_EQ(state[frame]["positions_done"], 20000);
    EXPECT_GT(state[frame]["brins_cut"].get<uint64_t>(), 1000u) << "the window should be cut";
    EXPECT_EQ(state[frame]["comparison"]["with"], "precision");
  }
  auto& world = state["world"]["comparison"];
  auto& tool = state["tool"]["comparison"];
  EXPECT_GT(world["mean_abs_ulps"].get<double>(), 2 * tool["mean_abs_ulps"].get<double>());
  EXPECT_GT(world["max_ulps"].get<double>(), 1.5 * tool["max_ulps"].get<double>());
}

// Section 6.4.3: the granularity and workgroup sweeps change no height and choose a setting per engine.
TEST(Cli, MachiningBenchSection643SweepsChangeNoHeight) {
  auto dir = scratch("machining-643");
  auto r = run_process(
      vklab_args("bench --lab machining --quick --only 6.4.3 --validate --out " + (dir / "h.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "h.json"))["labs"]["machining"];
  std::set<std::string> chosen;
  for (auto& row : rows) {
    EXPECT_EQ(row["reference"]["section"], "6.4.3") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    if (row["reference"].contains("chosen"))
      chosen.insert(row["pass"].get<std::string>());
    else
      EXPECT_TRUE(row["reference"]["heights_as_the_first"].get<bool>()) << row.dump();
  }
  EXPECT_EQ(chosen, (std::set<std::string>{"machining.position.chosen", "machining.triangle.chosen",
                                           "machining.fine.chosen", "machining.persistent.chosen"}));
  r = run_process(vklab_args("bench --lab machining --quick --engines warp"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown engine 'warp'"), std::string::npos) << r.err;
  r = run_process(vklab_args("--headless --lab machining --only spiral"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--only, --engines and --sweep go with bench"), std::string::npos) << r.err;
}

// The N-buffer (seed 003 §5.3) in the lab: a finishing path over a dome, the rays' lengths
// dumped, the window's GPU engine and its CPU engine equal to the CPU twin bit for bit; and
// bench section 5.3: along the normal, the Z-buffer's vertical depths err most on the slopes.
TEST(Cli, MachiningNbufferRunsAtTheLabAndInTheBench) {
  auto dir = scratch("machining-nbuffer");
  using namespace machining;
  Stock s;
  s.nx = s.ny = 48, s.d = 1;
  s.surface = {SurfaceShape::Dome, 40.0f, glm::vec2(23.5f)};
  s.nbuffer = true;
  auto path = finishing_path(s.surface, s.top, 47, 3, 2, 400, 0.5f);
  std::vector<float> cpu(48 * 48, 0.0f);
  mill_nbuffer_cpu(s, cpu, make_tool("sphere", 6, 320), path);
  for (const char* engine : {"fine", "cpu"}) {
    auto out = dir / engine;
    auto r = run_process(vklab_args(
        "--headless --validate --lab machining --set stock_size=48 --set spacing=1 --set surface=dome --set "
        "surface_radius=40 --set rays=normal --set path=finish --set path_positions=400 --set tool_triangles=320 "
        "--set positions_per_frame=100 --steps 5 --size 320x240 --set engine=" +
        std::string(engine) + " --capture " + (out / "n.png").string() + " --dump " + out.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(out / "params.json"));
    EXPECT_EQ(j["state"]["rays"], "normal");
    EXPECT_EQ(j["state"]["engine"], std::string(engine) == "cpu" ? "cpu" : "brin") << "the N-buffer's GPU engine";
    EXPECT_EQ(j["state"]["positions_done"], path.size());
    std::vector<size_t> shape;
    auto lengths = read_npy(out / "heights.npy", &shape);
    ASSERT_EQ(lengths.size(), cpu.size());
    for (size_t i = 0; i < cpu.size(); ++i)
      ASSERT_EQ(machining::height_key(lengths[i]), machining::height_key(cpu[i])) << engine << ", brin " << i;
    auto rays = read_npy(out / "rays.npy", &shape);
    EXPECT_EQ(shape, (std::vector<size_t>{48, 48, 4}));
    EXPECT_NEAR(j["state"]["max_depth"].get<double>(), 0.5, 0.02) << "the finish cuts 0.5 along the normal";
  }
  auto r =
      run_process(vklab_args("bench --lab machining --quick --only 5.3 --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["machining"];
  ASSERT_EQ(rows.size(), 12u) << "flat, cylinder, dome x N-buffer, with its hierarchy, brin, fine";
  auto steepest = [](const nlohmann::json& bands) { return bands.back()["mean_abs"].get<double>(); };
  for (auto& row : rows) {
    EXPECT_EQ(row["reference"]["section"], "5.3") << row.dump();
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    // the slow engines timed over every 16th position, their values there those of the fast ones
    if (row["pass"] == "machining.nbuffer" || row["pass"] == "machining.brin") {
      EXPECT_EQ(row["reference"]["scaled_from_positions"].get<size_t>(), (row["elements"].get<size_t>() + 15) / 16);
      EXPECT_TRUE(row["reference"]["values_equal_on_those_positions"]["equal"].get<bool>()) << row.dump();
    }
    if (row["reference"]["surface"] != "dome" || row["pass"] != "machining.fine") continue;
    auto& ref = row["reference"];
    EXPECT_GE(ref["vertical_depth_error_by_slope"].back()["slope_deg"][0].get<double>(), 60.0) << ref.dump();
    EXPECT_LT(steepest(ref["followed_along_normal_error_by_slope"]), steepest(ref["vertical_depth_error_by_slope"]))
        << ref.dump();
  }
  auto dome = [&](const char* pass) {
    for (auto& row : rows)
      if (row["reference"]["surface"] == "dome" && row["pass"] == pass) return row["reference"];
    return nlohmann::json();
  };
  EXPECT_LT(steepest(dome("machining.nbuffer")["length_error_by_slope"]),
            steepest(dome("machining.fine")["vertical_depth_error_by_slope"]) / 2);
  // the hierarchy's lengths are the brute force's: the same errors to the last digit
  EXPECT_EQ(dome("machining.nbuffer.bvh")["length_error_by_slope"], dome("machining.nbuffer")["length_error_by_slope"]);
}
