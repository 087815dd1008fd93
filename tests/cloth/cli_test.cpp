// The cloth lab from the command line: the drape's dump and stats against the CPU, the quick bench.
#include "compute/io/npy.h"
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

// The cloth lab end to end: headless steps with a drape onto the sphere, the dump's
// positions stay out of the sphere and above the ground, the stats agree with the CPU's;
// the quick bench has table 4.1's rows.
TEST(Cli, ClothHeadlessDumpAndBench) {
  auto dir = scratch("cloth");
  auto r =
      run_process(vklab_args("--headless --validate --lab cloth --set size=24 --set shear=1 --steps 60 --size 320x240 "
                             "--capture " +
                             (dir / "c.png").string() + " --dump " + (dir / "state").string()));
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

  r = run_process(vklab_args("bench --lab cloth --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["cloth"];
  ASSERT_EQ(rows.size(), 17u);  // 4 rows at 16² and 32² and one through the CPU at 16², 3 with 16
                                // relaxations, the lab's defaults, then Gauss–Seidel's kernels and tiles at 16² and 32²
  for (auto& row : rows) EXPECT_GT(row["median_ms"].get<double>(), 0.0);
  EXPECT_EQ(rows[4]["pass"], "cloth.step+display.readback");
  for (size_t i : {13u, 15u}) {
    EXPECT_EQ(rows[i]["pass"], "cloth.gauss-seidel.kernels");
    EXPECT_EQ(rows[i + 1]["pass"], "cloth.gauss-seidel.tiles");
    EXPECT_EQ(rows[i + 1]["reference"]["method"], "tiles");
    EXPECT_EQ(rows[i + 1]["reference"]["kernels_ms"], rows[i]["median_ms"]);
    EXPECT_EQ(rows[i + 1]["reference"]["tiles"]["workgroups"], 1);  // 16² and 32² fit one workgroup
    EXPECT_EQ(rows[i + 1]["reference"]["dispatches_per_step"], 7);  // a dispatch a substep, then the normals
    EXPECT_EQ(rows[i]["reference"]["dispatches_per_step"], 6 * (1 + 10 * 9) + 1);  // 8 colours, attachments
  }
  EXPECT_EQ(rows[0]["reference"]["thesis"]["simulation_ms"], 7.9);
  EXPECT_EQ(rows[1]["reference"]["dispatches_per_relaxation"], 9);  // the sub-streams
  EXPECT_EQ(rows[2]["pass"], "cloth.step.shift-matrices");
  EXPECT_EQ(rows[2]["reference"]["dispatches_per_relaxation"], 13);  // 4 products, 9 sub-streams
  EXPECT_EQ(rows[2]["reference"]["method"], "shift matrices");
  // a bad value: a clear message, exit 2
  r = run_process(vklab_args("--headless --lab cloth --set damping=3 --steps 1"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("damping"), std::string::npos) << r.err;
}
