// app/: parameters, .npy files, and the vklab command line end to end (subprocesses).
#include "diffusion/diffusion.h"
#include "machining/zbuffer.h"
#include "mesh/generate.h"
#include "mesh/links.h"
#include "mesh/meshb.h"
#include "wave/wave.h"
#include "helpers.h"
#include "assets.h"
#include "io/pgm.h"
#include "file_browser.h"
#include "lab.h"
#include "io/npy.h"

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include <array>
#include <cfloat>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace {

std::string vklab(const std::string& args) { return vklab_exe() + " " + args; }

}  // namespace

TEST(Params, ParseCheckAndDescribe) {
  auto lab = make_lab("diffusion");
  auto& p = lab->params();
  p.set("cd", "0.25");
  EXPECT_DOUBLE_EQ(p.get("cd"), 0.25);
  p.set_assignment("boundary=zero");
  EXPECT_EQ(p.choice("boundary"), "zero");
  EXPECT_FALSE(p.rebuild_pending);
  p.set("size", "64");
  EXPECT_TRUE(p.rebuild_pending);
  EXPECT_THROW(p.set("cd", "abc"), ParamError);
  EXPECT_THROW(p.set("cd", "7"), ParamError);
  EXPECT_THROW(p.set("size", "12.5"), ParamError);
  EXPECT_THROW(p.set("boundary", "wavy"), ParamError);
  EXPECT_THROW(p.set("nope", "1"), ParamError);
  EXPECT_THROW(p.set_assignment("cd"), ParamError);
  EXPECT_THROW(make_lab("nolab"), ParamError);
  auto j = p.to_json();
  EXPECT_EQ(j["size"], 64);
  EXPECT_EQ(j["boundary"], "zero");
  EXPECT_NE(p.describe().find("cd = 0.25"), std::string::npos);
}

TEST(Npy, RoundTripKeepsShapeAndValues) {
  auto dir = scratch("npy");
  auto data = random_floats(6 * 7, -1e6f, 1e6f, 31);
  write_npy(dir / "a.npy", data, {6, 7});
  std::vector<size_t> shape;
  auto back = read_npy(dir / "a.npy", &shape);
  EXPECT_EQ(shape, (std::vector<size_t>{6, 7}));
  EXPECT_EQ(back, data);
  EXPECT_EQ(fs::file_size(dir / "a.npy") % 16, (6 * 7 * 4) % 16);  // header padded to 64 bytes
  EXPECT_THROW(write_npy(dir / "b.npy", data, {5, 7}), std::invalid_argument);
}

TEST(Cli, BadUsageExitsWithCode2AndOneLine) {
  for (std::string args : {"--lab nolab --headless", "--frobnicate", "--headless --steps many", "--headless --steps -3",
                           "--headless --set cd=9", "--headless --set nope=1", "--headless --set cd",
                           "--size 10", "--dump /tmp/x", "bench --headless", "--headless --device no-such-gpu"}) {
    auto r = run_process(vklab(args));
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("vklab: ", 0), 0u) << args << "\n" << r.err;
  }
}

TEST(Cli, HelpListsLabsAndParameters) {
  auto r = run_process(vklab("--help --lab diffusion"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--headless"), std::string::npos);
  EXPECT_NE(r.out.find("brush_radius"), std::string::npos);
  auto d = run_process(vklab("--list-devices"));
  EXPECT_EQ(d.code, 0);
  EXPECT_NE(d.out.find(test_context().info.name), std::string::npos);
}

TEST(Cli, WithoutDisplayTheWindowSaysSoInOneLine) {
  auto r = run_process("env -u DISPLAY -u WAYLAND_DISPLAY " + vklab(""));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--headless"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The dump is the simulation's state: it must equal the CPU reference run of the same steps.
TEST(Cli, HeadlessDumpAndCaptureMatchTheReference) {
  auto dir = scratch("dump");
  auto r = run_process(vklab("--headless --validate --lab diffusion --steps 300 --set size=40 --set initial=random "
                             "--set seed=5 --set cd=0.7 --size 320x240 --capture " + (dir / "out.png").string() +
                             " --dump " + (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("diffusion.step"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "out.png"));
  EXPECT_GT(fs::file_size(dir / "out.png"), 1000u);

  std::vector<size_t> shape;
  auto gpu = read_npy(dir / "state" / "temperature.npy", &shape);
  ASSERT_EQ(shape, (std::vector<size_t>{40, 40}));
  diffusion::Config c;
  c.width = c.height = 40;
  c.cd = 0.7f;
  auto cpu = diffusion::initial_field(c, "random", 5);
  diffusion::steps_cpu(c, cpu, 300);
  for (size_t i = 0; i < cpu.size(); ++i) ASSERT_NEAR(gpu[i], cpu[i], 300 * 8 * FLT_MIN) << "cell " << i;

  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  EXPECT_EQ(j["lab"], "diffusion");
  EXPECT_EQ(j["params"]["size"], 40);
  EXPECT_EQ(j["params"]["initial"], "random");
  EXPECT_EQ(j["state"]["steps"], 300);
  EXPECT_EQ(j["state"]["non_finite_cells"], 0);
  EXPECT_NEAR(j["state"]["total_heat"].get<double>(), j["state"]["initial_total_heat"].get<double>(),
              300.0 * 1600 * 3 * FLT_EPSILON);
  EXPECT_FALSE(j["device"]["name"].get<std::string>().empty());
}

// The watchdog (issue 13): a simulation that blows up stops the headless run with one line
// naming the cause and exit code 3; growth without bound counts before NaN does.
TEST(Cli, HeadlessBlowUpIsReportedNotHidden) {
  auto r = run_process(vklab("--headless --steps 600 --set size=32 --set cd=2 --set initial=random"));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("vklab: stopped: diffusion is growing without bound"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Cd = 2 > 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("diffusion is growing"), r.err.rfind("diffusion is growing")) << "said twice: " << r.err;
}

// A mesh kernel that writes NaN: the mesh lab stops and says which field and example.
TEST(Cli, MeshLabStopsOnNonFiniteFields) {
  auto dir = scratch("mesh-nan");
  std::ofstream(dir / "nan.glsl") << "// loop: Tri\nTriBad.x = TriVerCrd[0].x * uintBitsToFloat(0x7f800000u);\n";
  auto r = run_process(vklab("--headless --lab mesh --steps 3 --set color_field=Bad --kernel " + (dir / "nan.glsl").string()));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("vklab: stopped: the kernels made Bad[0] NaN or infinite"), std::string::npos) << r.err;
  // the smoothing example on a volume mesh (vertices on no triangle) stays finite
  r = run_process(vklab("--headless --lab mesh --steps 20 --mesh " + std::string(VKLAB_SOURCE_ASSET_DIR) + "/mesh/bracket.mesh"));
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Cli, QuickBenchWritesCompleteJson) {
  auto dir = scratch("bench");
  auto r = run_process(vklab("bench --lab diffusion --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "b.json"));
  EXPECT_FALSE(j["device"]["name"].get<std::string>().empty());
  EXPECT_GT(j["saxpy"]["gbps"].get<double>(), 0.0);
  auto rows = j["labs"]["diffusion"];
  ASSERT_EQ(rows.size(), 2u);
  for (auto& row : rows) {
    EXPECT_GT(row["median_ms"].get<double>(), 0.0);
    EXPECT_GT(row["gbps"].get<double>(), 0.0);
    EXPECT_GT(row["gflops"].get<double>(), 0.0);
    EXPECT_GT(row["reference"]["cpu_single_thread_ms"].get<double>(), 0.0);
    EXPECT_TRUE(row["reference"].contains("fraction_of_saxpy_bandwidth"));
  }
  EXPECT_EQ(rows[0]["size"], "64x64");
}

// The linear algebra lab end to end: CG solves the implicit Laplacian system headless,
// the dump holds the solution and its residual history.
TEST(Cli, LinalgCgConvergesHeadlessAndDumps) {
  for (std::string variant : {"thesis", "modern"}) {
    auto dir = scratch("linalg-" + variant);
    auto r = run_process(vklab("--headless --validate --lab linalg --set operator=cg --set side=32 --set variant=" +
                               variant + " --set layout=" + (variant == "thesis" ? "texture" : "buffer") +
                               " --steps 30 --size 200x200 --capture " + (dir / "cg.png").string() + " --dump " +
                               (dir / "state").string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
    EXPECT_TRUE(j["state"]["cg_converged"].get<bool>()) << j.dump(2);
    EXPECT_LT(j["state"]["true_relative_residual"].get<double>(), 1e-4);
    std::vector<size_t> shape;
    auto x = read_npy(dir / "state" / "result.npy", &shape);
    EXPECT_EQ(shape, (std::vector<size_t>{64, 64}));
    auto hist = read_npy(dir / "state" / "cg_residual.npy");
    ASSERT_GT(hist.size(), 2u);
    EXPECT_FLOAT_EQ(hist[0], 1.0f);
    EXPECT_LE(hist.back(), 1e-5f);
    // x solves (I - c·L) x = b with b >= 0: an M-matrix, so x >= 0 and not all zero
    float mx = 0;
    for (float v : x) {
      EXPECT_GE(v, -1e-6f);
      mx = std::max(mx, v);
    }
    EXPECT_GT(mx, 0.05f);
  }
}

TEST(Cli, LinalgQuickBenchHasEveryTableWithTheSeedBeside) {
  auto dir = scratch("linalg-bench");
  auto r = run_process(vklab("bench --lab linalg --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "b.json"));
  auto rows = j["labs"]["linalg"];
  std::set<std::string> passes;
  for (auto& row : rows) {
    passes.insert(row["pass"].get<std::string>());
    EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
    EXPECT_GT(row["reference"]["cpu_single_thread_ms"].get<double>(), 0.0) << row.dump();
    if (row["reference"].contains("max_relative_error_vs_cpu")) {
      EXPECT_LT(row["reference"]["max_relative_error_vs_cpu"].get<double>(), 1e-5) << row.dump();
    }
  }
  for (auto p : {"banded12.thesis.texture", "banded12.modern.buffer", "axpby.thesis.texture", "axpby.modern.buffer",
                 "norm.thesis.texture", "norm.modern.buffer", "cg.thesis.texture", "cg.modern.buffer",
                 "dense.thesis.texture", "dense.modern.buffer"})
    EXPECT_TRUE(passes.count(p)) << p;
}

TEST(Cli, LinalgCgStopsAtTheIterationCap) {
  auto dir = scratch("linalg-cap");
  auto r = run_process(vklab("--headless --lab linalg --set operator=cg --set side=32 --set cg_max_iterations=25 "
                             "--set cg_check_every=10 --steps 10 --dump " + (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  EXPECT_EQ(j["state"]["cg_iterations"], 25);
  EXPECT_FALSE(j["state"]["cg_converged"].get<bool>());
  EXPECT_EQ(read_npy(dir / "state" / "cg_residual.npy").size(), 26u);
}

TEST(Assets, GraymapsReadAndMalformedOnesAreNamed) {
  auto img = read_pgm(find_asset("diffusion/letters.pgm"));
  EXPECT_EQ(img.width, 66u);
  EXPECT_EQ(img.height, 22u);
  size_t hot = std::count(img.values.begin(), img.values.end(), 1.0f);
  EXPECT_GT(hot, 100u);
  EXPECT_EQ(hot + std::count(img.values.begin(), img.values.end(), 0.0f), img.values.size());

  auto dir = scratch("pgm");
  std::ofstream(dir / "p5.pgm", std::ios::binary) << "P5\n# c\n2 2\n65535\n" << std::string("\x00\x00\xff\xff\x80\x00\x00\x01", 8);
  auto p5 = read_pgm(dir / "p5.pgm");
  EXPECT_EQ(p5.values, (std::vector<float>{0.0f, 1.0f, float(0x8000) / 65535.0f, 1.0f / 65535.0f}));

  std::map<std::string, std::string> bad = {{"magic.pgm", "P6\n1 1\n255\n0\n"},
                                            {"short.pgm", "P2\n2 2\n255\n1 2 3\n"},
                                            {"range.pgm", "P2\n1 1\n15\n16\n"},
                                            {"size.pgm", "P2\n0 1\n255\n"},
                                            {"data.pgm", "P5\n4 4\n255\nab"}};
  for (auto& [name, text] : bad) {
    std::ofstream(dir / name, std::ios::binary) << text;
    try {
      read_pgm(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(find_asset("no/such/asset.pgm"), std::runtime_error);
}

TEST(Cli, DiffusionStartsFromTheLettersAsset) {
  auto dir = scratch("letters");
  auto r = run_process(vklab("--headless --validate --set initial=letters --set size=96 --steps 10 --dump " +
                             (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  // 90% of 96 cells across 66 pixels: each hot pixel covers ~1.7 cells
  EXPECT_GT(j["state"]["initial_total_heat"].get<double>(), 300.0);
  EXPECT_NEAR(j["state"]["total_heat"].get<double>(), j["state"]["initial_total_heat"].get<double>(), 1e-2);
}

// The wave lab end to end: the dump after 30 headless steps equals the CPU reference from
// the same preset, its energy agrees, the capture is written; the quick bench has its rows.
TEST(Cli, WaveHeadlessDumpMatchesTheCpuAndBenches) {
  auto dir = scratch("wave");
  auto r = run_process(vklab("--headless --validate --lab wave --steps 30 --set size=32 --set preset=drop "
                             "--set tolerance=1e-6 --set steps_per_frame=4 --size 320x240 --capture " + (dir / "w.png").string() +
                             " --dump " + (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "w.png"), 1000u);
  std::vector<size_t> shape;
  auto gpu = read_npy(dir / "state" / "height.npy", &shape);
  ASSERT_EQ(shape, (std::vector<size_t>{32, 32}));
  wave::Config c;
  c.width = c.height = 32;
  c.c = 4.0f, c.dt = 1.0f / 60, c.dx = 1.0f / 16;  // the lab's defaults
  c.max_iterations = 200;
  std::vector<float> h0(c.n(), 0.0f);
  wave::disturb_cpu(c, h0, wave::Shape::Drop, 15.5f, 15.5f, 5.0f, 3.0f);
  std::vector<double> h(h0.begin(), h0.end()), p = h;
  for (int i = 0; i < 30; ++i) wave::step_cpu(c, h, p);
  for (size_t i = 0; i < h.size(); ++i) ASSERT_NEAR(gpu[i], h[i], 1e-4) << "cell " << i;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  EXPECT_EQ(j["state"]["steps"], 30);
  EXPECT_EQ(j["state"]["steps_short_of_tolerance"], 0);
  EXPECT_NEAR(j["state"]["energy"].get<double>(), j["state"]["energy_cpu"].get<double>(),
              1e-4 * j["state"]["energy_cpu"].get<double>());

  r = run_process(vklab("bench --lab wave --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["wave"];
  ASSERT_EQ(rows.size(), 4u);  // step and step+display at 64² and 128²
  for (auto& row : rows) {
    EXPECT_GT(row["median_ms"].get<double>(), 0.0);
    EXPECT_GT(row["reference"]["cg_iterations_mean"].get<double>(), 0.0);
    EXPECT_EQ(row["reference"]["steps_short_of_tolerance"], 0);
    EXPECT_TRUE(row["reference"].contains("thesis"));
  }
  EXPECT_GT(rows[0]["reference"]["cpu_single_thread_ms"].get<double>(), 0.0);
  // banded storage beyond what it may hold: a clear message, exit 2
  r = run_process(vklab("--headless --lab wave --set storage=banded --set size=4096 --steps 1"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("banded storage"), std::string::npos) << r.err;
}

// The cloth lab end to end: headless steps with a drape onto the sphere, the dump's
// positions stay out of the sphere and above the ground, the stats agree with the CPU's;
// the quick bench has table 4.1's rows.
TEST(Cli, ClothHeadlessDumpAndBench) {
  auto dir = scratch("cloth");
  auto r = run_process(vklab("--headless --validate --lab cloth --set size=24 --set shear=1 --steps 60 --size 320x240 "
                             "--capture " + (dir / "c.png").string() + " --dump " + (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "c.png"), 1000u);
  std::vector<size_t> shape;
  auto p = read_npy(dir / "state" / "positions.npy", &shape);
  ASSERT_EQ(shape, (std::vector<size_t>{24, 24, 4}));
  for (size_t i = 0; i < p.size(); i += 4) {
    float dx = p[i], dy = p[i + 1], dz = p[i + 2];
    ASSERT_GE(std::sqrt(dx * dx + dy * dy + dz * dz), 0.51f * (1 - 1e-6f)) << "inside the sphere: particle " << i / 4;
    ASSERT_GE(dy, -1.2f + 0.01f) << "under the ground";
    ASSERT_EQ(p[i + 3], 1.0f) << "the drape has no pins";
  }
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  EXPECT_EQ(j["state"]["steps"], 60);
  EXPECT_EQ(j["state"]["non_finite"], 0);
  EXPECT_LT(j["state"]["rms_stretch"].get<double>(), 0.1);

  r = run_process(vklab("bench --lab cloth --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["cloth"];
  ASSERT_EQ(rows.size(), 10u);  // 3 rows at 16² and 32², 3 with 16 relaxations, the lab's defaults
  for (auto& row : rows) EXPECT_GT(row["median_ms"].get<double>(), 0.0);
  EXPECT_EQ(rows[0]["reference"]["thesis"]["simulation_ms"], 7.9);
  EXPECT_EQ(rows[1]["reference"]["dispatches_per_relaxation"], 9);  // the sub-streams
  // a bad value: a clear message, exit 2
  r = run_process(vklab("--headless --lab cloth --set damping=3 --steps 1"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("damping"), std::string::npos) << r.err;
}

// The machining lab from the command line: generated tool and path, an STL tool and a
// positions file, the dump's heights against the CPU engine; a bad file ends the run with
// a message naming it and exit code 1.
TEST(Cli, MachiningHeadlessRunsFilesAndRefusesBadOnes) {
  auto dir = scratch("machining");
  auto r = run_process(vklab("--headless --validate --lab machining --tool-shape sphere --path-gen spiral --set "
                             "stock_size=64 --set path_positions=300 --set positions_per_frame=100 --steps 5 "
                             "--size 320x240 --capture " + (dir / "m.png").string() + " --dump " + (dir / "a").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "m.png"), 1000u);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "a" / "params.json"));
  EXPECT_EQ(j["state"]["positions_done"], 300);
  EXPECT_GT(j["state"]["removed_volume"].get<double>(), 0.0);
  // the spiral cuts 1 deep; a brin seldom lies under the very pole of the ball mesh
  EXPECT_NEAR(j["state"]["max_depth"].get<double>(), 1.0, 5e-3);

  // An STL tool (a flat end mill) on a straight pass from a positions file: a groove.
  auto tool = machining::make_tool("flat", 4.0f, 128);
  machining::write_stl(dir / "flat.stl", tool);
  std::ofstream(dir / "pass.txt") << "# x y z\n4 8 -0.5\n12 8 -0.5\n";
  r = run_process(vklab("--headless --validate --lab machining --tool " + (dir / "flat.stl").string() + " --path " +
                        (dir / "pass.txt").string() + " --set stock_size=64 --set spacing=0.25 --set engine=brin "
                        "--steps 1 --dump " + (dir / "b").string()));
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
  r = run_process(vklab("--headless --validate --lab machining --path " + (dir / "finish.txt").string() +
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
  machining::mill_cpu(z, cpu2, machining::make_tool("sphere", 2.0f, 1984), machining::read_positions(dir / "finish.txt"));
  for (size_t i = 0; i < cpu2.size(); ++i) ASSERT_NEAR(zoomed[i], cpu2[i], 1e-5f) << "zoomed brin " << i;
  size_t deeper = 0;
  for (size_t i = 0; i < h.size(); ++i) deeper += zoomed[i] < h[i] - 1e-4f;
  EXPECT_GT(deeper, 100u) << "the ball end should cut below the flat groove somewhere";

  // Bad inputs: one line naming the file, exit code 1 (not a crash).
  std::ofstream(dir / "bad.stl") << "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n";
  r = run_process(vklab("--headless --lab machining --tool " + (dir / "bad.stl").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.stl"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 4"), std::string::npos) << r.err;
  r = run_process(vklab("--headless --lab machining --path " + (dir / "missing.nc").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing.nc"), std::string::npos) << r.err;

  // The quick bench: every engine on two of the seed's configurations, and the 64-bit rows.
  r = run_process(vklab("bench --lab machining --quick --validate --out " + (dir / "b.json").string()));
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
}

// The mesh lab from the command line: a .meshb file and a kernel file; the dumped field
// equals the CPU loop; a kernel that does not compile, or a broken mesh file, ends the run
// with a message naming it; the quick bench has its rows.
TEST(Cli, MeshLabRunsKernelFilesOnMeshFiles) {
  auto dir = scratch("meshlab");
  mesh::Mesh m;
  m.xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5};
  m.vref = {0, 0, 0, 0};
  m.elements.push_back({mesh::Kind::Triangles, {0, 1, 2, 1, 3, 2}, {1, 2}});
  mesh::write_mesh(dir / "two.meshb", m, 2);
  std::ofstream(dir / "k.glsl") << "// loop: Tri\nTriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], "
                                   "TriVerCrd[2] - TriVerCrd[0]));\n---\n// loop: Ver\nfloat a = 0.0;\n"
                                   "for (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\nVerStar.x = a;\n";
  auto r = run_process(vklab("--headless --validate --lab mesh --mesh " + (dir / "two.meshb").string() + " --kernel " +
                             (dir / "k.glsl").string() + " --steps 2 --size 320x240 --capture " +
                             (dir / "m.png").string() + " --dump " + (dir / "d").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "m.png"), 1000u);
  auto area = read_npy(dir / "d" / "Area.npy"), star = read_npy(dir / "d" / "Star.npy");
  ASSERT_EQ(area.size(), 8u);
  EXPECT_NEAR(area[0], 0.5, 1e-6);
  double second = 0.5 * std::sqrt(0.25 + 0.25 + 1.0);  // (1,0,0)-(1,1,.5)-(0,1,0)
  EXPECT_NEAR(area[4], second, 1e-6);
  EXPECT_NEAR(star[0], 0.5, 1e-6);             // vertex 0: the first triangle only
  EXPECT_NEAR(star[4], 0.5 + second, 1e-6);    // vertex 1: both
  EXPECT_NEAR(star[12], second, 1e-6);         // vertex 3: the second

  // a solution at the vertices, attached as the field Sol and reduced in the dump
  mesh::Solutions sol;
  sol.fields.push_back({mesh::Kind::Vertices, {1}, {1, 2, 3, 4}});
  mesh::write_solution(dir / "two.solb", sol, 2);
  r = run_process(vklab("--headless --validate --lab mesh --mesh " + (dir / "two.meshb").string() + " --sol " +
                        (dir / "two.solb").string() + " --set example=areas --set color_field=Sol --steps 1 --dump " +
                        (dir / "s").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json js = nlohmann::json::parse(std::ifstream(dir / "s" / "params.json"));
  EXPECT_EQ(js["state"]["reductions_x"]["Sol"]["sum"], 10.0);
  EXPECT_EQ(js["state"]["reductions_x"]["Sol"]["max"], 4.0);

  // a volume mesh (one tetrahedron, no triangles): the lab runs on its boundary faces
  mesh::Mesh tet;
  tet.xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  tet.vref = {0, 0, 0, 0};
  tet.elements.push_back({mesh::Kind::Tetrahedra, {0, 1, 2, 3}, {1}});
  mesh::write_mesh(dir / "tet.mesh", tet, 2);
  r = run_process(vklab("--headless --validate --lab mesh --mesh " + (dir / "tet.mesh").string() +
                        " --set example=areas --steps 1 --dump " + (dir / "t").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json jt = nlohmann::json::parse(std::ifstream(dir / "t" / "params.json"));
  EXPECT_EQ(jt["state"]["triangles"], 4);
  EXPECT_NEAR(jt["state"]["reductions_x"]["Area"]["sum"].get<double>(), 1.5 + std::sqrt(3.0) / 2, 1e-6);

  std::ofstream(dir / "bad.glsl") << "// loop: Tri\nTriArea.x = 1.0;\nTriArea.y = missing;\n";
  r = run_process(vklab("--headless --lab mesh --kernel " + (dir / "bad.glsl").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
  std::ofstream(dir / "bad.mesh") << "MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 zero 0\nEnd\n";
  r = run_process(vklab("--headless --lab mesh --mesh " + (dir / "bad.mesh").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.mesh: line 5"), std::string::npos) << r.err;

  r = run_process(vklab("bench --lab mesh --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["mesh"];
  ASSERT_GE(rows.size(), 12u);  // down and up in 3 orders at 2 sizes, + gather vs atomics where the device has them
  for (auto& row : rows) EXPECT_GT(row["median_ms"].get<double>(), 0.0);
}

namespace {

// Lit pixels of a capture (the background is near black).
size_t lit_pixels(const fs::path& png) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 4);
  if (!px) return 0;
  size_t lit = 0;
  for (size_t i = 0; i < size_t(w) * h; ++i) lit += px[4 * i] + px[4 * i + 1] + px[4 * i + 2] > 150;
  stbi_image_free(px);
  return lit;
}

// Volumes from the command line: the generated cube of tetrahedra's volumes add up to 1
// and so do the vertices' dual cells; a solution at the tetrahedra of a mesh file feeds a
// kernel file over tetrahedra; the clip plane takes a part of the picture away, not all.
TEST(Cli, MeshLabVolumesSolutionsAndClip) {
  auto dir = scratch("meshvol");
  auto r = run_process(vklab("--headless --validate --lab mesh --set \"example=tetrahedra: volumes\" --set grid_size=16 "
                             "--steps 1 --size 320x240 --capture " + (dir / "whole.png").string() + " --dump " + (dir / "v").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto js = nlohmann::json::parse(std::ifstream(dir / "v" / "params.json"))["state"];
  EXPECT_EQ(js["counts"]["Tetrahedra"], 6 * 4 * 4 * 4);
  EXPECT_NEAR(js["reductions_x"]["Vol"]["sum"].get<double>(), 1.0, 1e-5);
  EXPECT_NEAR(js["reductions_x"]["Dual"]["sum"].get<double>(), 1.0, 1e-5);
  EXPECT_GT(js["reductions_x"]["Vol"]["min"].get<double>(), 0.0) << "positively oriented";
  r = run_process(vklab("--headless --validate --lab mesh --set \"example=tetrahedra: volumes\" --set grid_size=16 "
                        "--set clip=true --set clip_at=0.5 --steps 1 --size 320x240 --capture " + (dir / "clip.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  size_t whole = lit_pixels(dir / "whole.png"), clipped = lit_pixels(dir / "clip.png");
  EXPECT_GT(whole, 10000u);
  EXPECT_GT(clipped, whole / 4) << "half the cube stays";
  EXPECT_LT(clipped, whole * 95 / 100) << "the other half is gone";

  mesh::Mesh m = mesh::cube(2, mesh::Kind::Tetrahedra);
  mesh::write_mesh(dir / "cube.meshb", m, 3);
  mesh::Solutions sol;
  std::vector<double> values;
  for (int i = 0; i < 48; ++i) values.push_back(0.25 * i - 3);
  sol.fields.push_back({mesh::Kind::Tetrahedra, {1}, values});
  mesh::write_solution(dir / "cube.sol", sol, 2);
  std::ofstream(dir / "k.glsl") << "// loop: Tet\n// field: Twice float Tet\nTetTwice = 2.0 * float(TetSol) + float(TetRef);\n";
  r = run_process(vklab("--headless --validate --lab mesh --mesh " + (dir / "cube.meshb").string() + " --sol " +
                        (dir / "cube.sol").string() + " --kernel " + (dir / "k.glsl").string() +
                        " --set color_field=Twice --steps 1 --dump " + (dir / "s").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto twice = read_npy(dir / "s" / "Twice.npy");
  ASSERT_EQ(twice.size(), 48u);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(twice[i], 2 * values[i] + 1) << "tetrahedron " << i;
  // written back: the mesh as it was read (plus its extracted edges and boundary faces), and
  // the fields at the tetrahedra as one solution of two columns, Sol then Twice
  auto back = mesh::read_mesh(dir / "s" / "mesh.meshb");
  EXPECT_EQ(back.xyz, m.xyz);
  EXPECT_EQ(back.find(mesh::Kind::Tetrahedra)->v, m.find(mesh::Kind::Tetrahedra)->v);
  EXPECT_EQ(back.find(mesh::Kind::Triangles)->count(), 6u * 4 * 2) << "the cube's boundary: 6 sides of 2 x 2 squares, halved";
  EXPECT_EQ(back.find(mesh::Kind::Edges)->count(), 54u + 36 + 8) << "grid lines, square diagonals, cell diagonals";
  auto fields = mesh::read_solution(dir / "s" / "mesh.solb");
  ASSERT_EQ(fields.fields.size(), 1u);
  EXPECT_EQ(fields.fields[0].at, mesh::Kind::Tetrahedra);
  ASSERT_EQ(fields.fields[0].values.size(), 96u);
  for (int i = 0; i < 48; ++i) {
    EXPECT_EQ(fields.fields[0].values[2 * i], values[i]);
    EXPECT_EQ(fields.fields[0].values[2 * i + 1], 2 * values[i] + 1);
  }
  // a solution with a line per tetrahedron on a mesh with fewer: a message naming the file
  mesh::write_mesh(dir / "small.mesh", mesh::cube(1, mesh::Kind::Tetrahedra), 2);
  r = run_process(vklab("--headless --lab mesh --mesh " + (dir / "small.mesh").string() + " --sol " +
                        (dir / "cube.sol").string() + " --steps 1"));
  EXPECT_EQ(r.code, 2) << "bad input";
  EXPECT_NE(r.err.find("cube.sol: 48 values at Tetrahedra, the mesh has 6"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// Counts pixels by dominant colour: blue (the colour map's low end) and red (its high end).
std::pair<size_t, size_t> blue_red(const fs::path& png) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 4);
  if (!px) return {0, 0};
  size_t blue = 0, red = 0;
  for (size_t i = 0; i < size_t(w) * h; ++i) {
    int r = px[4 * i], b = px[4 * i + 2];
    blue += b > r + 40, red += r > b + 40;
  }
  stbi_image_free(px);
  return {blue, red};
}

// Two tetrahedra sharing a face, coloured by their reference (1 blue, 2 red). Clipped so that
// only the second stays, the shared face — listed once, by the first — shows the second's red.
TEST(Cli, MeshClipShowsTheKeptElementsColour) {
  auto dir = scratch("meshclip");
  mesh::Mesh m;
  m.xyz = {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0.3, 0.3, -1, 0.3, 0.3};
  m.vref.assign(5, 0);
  m.elements.push_back({mesh::Kind::Tetrahedra, {0, 1, 2, 3, 0, 2, 1, 4}, {1, 2}});
  mesh::write_mesh(dir / "two.mesh", m, 2);
  std::ofstream(dir / "k.glsl") << "// field: C float Tet\n// loop: Tet\nTetC = float(TetRef);\n";
  std::string run = "--headless --validate --lab mesh --mesh " + (dir / "two.mesh").string() + " --kernel " +
                    (dir / "k.glsl").string() + " --set color_field=C --set wireframe=false --steps 1 --size 320x240 ";
  auto r = run_process(vklab(run + "--capture " + (dir / "both.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto [blue, red] = blue_red(dir / "both.png");
  EXPECT_GT(blue, 500u);
  EXPECT_GT(red, 500u);
  r = run_process(vklab(run + "--set clip=true --set clip_axis=x --set clip_at=0.5 --capture " + (dir / "clip.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto [blue2, red2] = blue_red(dir / "clip.png");
  EXPECT_LT(blue2, 20u) << "the first tetrahedron is gone, and the face it shared shows the second's colour";
  EXPECT_GT(red2, red) << "the uncovered face adds to the second's";

  // Uncoloured, the clipped pair is the second tetrahedron alone (same vertices, so the
  // same framing): its four faces, the shared one drawn, not a hole onto its back faces.
  mesh::Mesh one = m;
  one.elements[0] = {mesh::Kind::Tetrahedra, {0, 2, 1, 4}, {2}};
  mesh::write_mesh(dir / "one.mesh", one, 2);
  std::string grey = " --set color_field=None --steps 1 --size 320x240 --capture ";
  r = run_process(vklab("--headless --lab mesh --mesh " + (dir / "one.mesh").string() + " --kernel " +
                        (dir / "k.glsl").string() + grey + (dir / "one.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_process(vklab("--headless --lab mesh --mesh " + (dir / "two.mesh").string() + " --kernel " +
                        (dir / "k.glsl").string() + " --set clip=true --set clip_axis=x --set clip_at=0.5" + grey +
                        (dir / "cut.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  int w = 0, h = 0, n = 0, w2 = 0, h2 = 0;
  unsigned char* a = stbi_load((dir / "one.png").c_str(), &w, &h, &n, 4);
  unsigned char* b = stbi_load((dir / "cut.png").c_str(), &w2, &h2, &n, 4);
  ASSERT_TRUE(a && b && w == w2 && h == h2);
  size_t differ = 0, lit = 0;
  for (size_t i = 0; i < size_t(w) * h; ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a[4 * i + c]) - int(b[4 * i + c])));
    differ += d > 24, lit += a[4 * i] + a[4 * i + 1] + a[4 * i + 2] > 150;
  }
  stbi_image_free(a), stbi_image_free(b);
  EXPECT_GT(lit, 2000u);
  EXPECT_LT(differ, lit / 100) << "pixels that differ between the cut pair and the lone tetrahedron";
}

}  // namespace

namespace {

// The path parameters' chooser lists a folder's subfolders (with ".." to go up) and the
// files of the wanted types, whatever the case of their extension; a folder it cannot read
// gives a message naming it.
TEST(FileBrowser, ListsFoldersAndTheWantedFiles) {
  auto dir = scratch("browse");
  fs::create_directories(dir / "sub");
  for (const char* f : {"b.meshb", "a.mesh", "C.MESH", "notes.txt", "mesh"}) std::ofstream(dir / f) << "x";
  auto l = list_folder(dir, {".mesh", ".meshb"});
  EXPECT_TRUE(l.error.empty()) << l.error;
  EXPECT_EQ(l.folders, (std::vector<std::string>{"..", "sub"}));
  EXPECT_EQ(l.files, (std::vector<std::string>{"C.MESH", "a.mesh", "b.meshb"}));
  EXPECT_EQ(list_folder(dir, {"*"}).files.size(), 5u);
  auto missing = list_folder(dir / "nowhere", {});
  EXPECT_NE(missing.error.find("nowhere"), std::string::npos) << missing.error;
  fs::remove_all(dir);
}

}  // namespace

namespace {

// The sample meshes gmsh made for the mesh lab (scripts/make-mesh-assets.sh): a closed
// genus-0 sphere, and a volume with a hole through it whose boundary has genus 1.
TEST(Assets, SampleMeshesAreWhatTheySay) {
  auto sphere = mesh::read_mesh(find_asset("mesh/sphere.mesh"));
  const auto& t = *sphere.find(mesh::Kind::Triangles);
  long V = long(sphere.vertices()), F = long(t.count()), E = long(mesh::extract_edges(t).count());
  EXPECT_EQ(V - E + F, 2) << "a sphere";
  auto bracket = mesh::read_mesh(find_asset("mesh/bracket.mesh"));
  mesh::FaceSet faces = mesh::extract_faces(bracket);
  mesh::Elements outside = faces.boundary(mesh::Kind::Triangles);
  std::set<uint32_t> on(outside.v.begin(), outside.v.end());
  long Vb = long(on.size()), Fb = long(outside.count()), Eb = long(mesh::extract_edges(outside).count());
  EXPECT_EQ(Vb - Eb + Fb, 0) << "the boundary of a box with a hole through it: a torus";
  double volume = 0;
  const auto& tets = *bracket.find(mesh::Kind::Tetrahedra);
  auto P = [&](uint32_t v) { return std::array<double, 3>{bracket.xyz[3 * v], bracket.xyz[3 * v + 1], bracket.xyz[3 * v + 2]}; };
  for (size_t i = 0; i < tets.count(); ++i) {
    auto a = P(tets.v[4 * i]), b = P(tets.v[4 * i + 1]), c = P(tets.v[4 * i + 2]), d = P(tets.v[4 * i + 3]);
    double u[3], w[3], z[3];
    for (int k = 0; k < 3; ++k) u[k] = b[k] - a[k], w[k] = c[k] - a[k], z[k] = d[k] - a[k];
    volume += std::abs(u[0] * (w[1] * z[2] - w[2] * z[1]) - u[1] * (w[0] * z[2] - w[2] * z[0]) + u[2] * (w[0] * z[1] - w[1] * z[0])) / 6;
  }
  double exact = 2 * 1 * 0.6 - M_PI * 0.25 * 0.25 * 0.6;  // the box less the cylinder
  EXPECT_NEAR(volume, exact, 0.01 * exact) << "faceted hole, slightly smaller than the round one";
  EXPECT_GT(volume, exact);
}

}  // namespace
