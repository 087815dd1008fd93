// The wave lab from the command line: the dump against the CPU, energy, capture, the quick bench.
#include "compute/io/npy.h"
#include "compute/wave/wave.h"
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

// The wave lab end to end: the dump after 30 headless steps equals the CPU reference from
// the same preset, its energy agrees, the capture is written; the quick bench has its rows.
TEST(Cli, WaveHeadlessDumpMatchesTheCpuAndBenches) {
  auto dir = scratch("wave");
  auto r =
      run_process(vklab_args("--headless --validate --lab wave --steps 30 --set size=32 --set preset=drop "
                             "--set tolerance=1e-6 --set steps_per_frame=4 --size 320x240 --capture " +
                             (dir / "w.png").string() + " --dump " + (dir / "state").string()));
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

  r = run_process(vklab_args("bench --lab wave --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["wave"];
  // step and step+display at 64² and 128², through the CPU and the thesis's path at 64²
  ASSERT_EQ(rows.size(), 6u);
  for (auto& row : rows) {
    EXPECT_GT(row["median_ms"].get<double>(), 0.0);
    EXPECT_TRUE(row["reference"].contains("thesis"));
    if (row["pass"] == "wave.step+display.readback") {  // table 4.2's display the thesis's way
      for (const char* k : {"step_wall_ms", "direct_wall_ms", "trip_ms", "bus_gbps"})
        EXPECT_GT(row["reference"][k].get<double>(), 0.0) << k;
      EXPECT_DOUBLE_EQ(row["reference"]["bus_bytes"].get<double>(), 2.0 * 4 * row["elements"].get<double>());
      EXPECT_GT(row["reference"]["thesis"]["display_over_step"].get<double>(), 1.0);
      continue;
    }
    EXPECT_GT(row["reference"]["cg_iterations_mean"].get<double>(), 0.0);
    if (row["pass"] == "wave.step.thesis") continue;
    EXPECT_EQ(row["reference"]["steps_short_of_tolerance"], 0);
  }
  EXPECT_EQ(rows[2]["pass"], "wave.step+display.readback");
  rows.erase(2);  // the rows below count without it
  // the thesis's path runs the thesis's scheme (scheme=auto), the modern rows Newmark
  EXPECT_EQ(rows[2]["reference"]["scheme"], "seed");
  EXPECT_EQ(rows[2]["reference"]["modern_scheme"], "newmark");
  EXPECT_EQ(rows[0]["reference"]["scheme"], "newmark");
  EXPECT_GT(rows[2]["reference"]["residual_readbacks_mean"].get<double>(), 1.0);
  EXPECT_GT(rows[2]["reference"]["modern_ms"].get<double>(), 0.0);
  EXPECT_GT(rows[0]["reference"]["cpu_single_thread_ms"].get<double>(), 0.0);
  // banded storage beyond what it may hold: a clear message, exit 2
  r = run_process(vklab_args("--headless --lab wave --set storage=banded --set size=4096 --steps 1"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("banded storage"), std::string::npos) << r.err;
}
