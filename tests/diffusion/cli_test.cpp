// The diffusion lab from the command line: dump and capture against the CPU, the watchdog, the quick bench, the letters
// asset.
#include "app/core/assets.h"
#include "compute/diffusion/diffusion.h"
#include "compute/io/npy.h"
#include "compute/io/pgm.h"
#include "tests/helpers.h"

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cfloat>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

// The dump is the simulation's state: it must equal the CPU reference run of the same steps.
TEST(Cli, HeadlessDumpAndCaptureMatchTheReference) {
  auto dir = scratch("dump");
  auto r =
      run_process(vklab_args("--headless --validate --lab diffusion --steps 300 --set size=40 --set initial=random "
                             "--set seed=5 --set cd=0.7 --size 320x240 --capture " +
                             (dir / "out.png").string() + " --dump " + (dir / "state").string()));
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
  auto r = run_process(vklab_args("--headless --steps 600 --set size=32 --set cd=2 --set initial=random"));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("vklab: stopped: diffusion is growing without bound"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Cd = 2 > 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("diffusion is growing"), r.err.rfind("diffusion is growing")) << "said twice: " << r.err;
}

TEST(Cli, QuickBenchWritesCompleteJson) {
  auto dir = scratch("bench");
  auto r = run_process(vklab_args("bench --lab diffusion --quick --validate --out " + (dir / "b.json").string()));
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

TEST(Cli, DiffusionStartsFromTheLettersAsset) {
  auto dir = scratch("letters");
  auto r = run_process(vklab_args("--headless --validate --set initial=letters --set size=96 --steps 10 --dump " +
                                  (dir / "state").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "state" / "params.json"));
  // 90% of 96 cells across 66 pixels: each hot pixel covers ~1.7 cells
  EXPECT_GT(j["state"]["initial_total_heat"].get<double>(), 300.0);
  EXPECT_NEAR(j["state"]["total_heat"].get<double>(), j["state"]["initial_total_heat"].get<double>(), 1e-2);
}
