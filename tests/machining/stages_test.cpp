// SIMSURF §16.4.3's configuration in the machining lab (`then`): the lab's path, then a preset's
// tool and path from the surface it left; the heights equal the CPU engine's two paths milled in
// turn, bit for bit; a preset of another lab or a double-precision stock is refused with a message.
#include "app/core/params.h"
#include "app/core/registry.h"
#include "app/core/session.h"
#include "compute/io/npy.h"
#include "tests/helpers.h"

#include <fstream>

TEST(MachiningStages, ThePresetsToolAndPathMillOnFromTheSurfaceLeft) {
  auto dir = std::filesystem::temp_directory_path() / "vklab-stages";
  std::filesystem::create_directories(dir);
  const auto second = dir / "second.json";
  std::ofstream(second) << R"({"lab": "machining", "what": "a flat end along a zigzag",
    "params": {"tool_shape": "flat", "tool_diameter": 4, "tool_triangles": 64, "path": "zigzag",
               "path_positions": 150, "stepover": 2, "stock_size": 512}})";
  Session s(validated_options(), make_lab("machining"), Session::Parts{false, false});
  for (auto [k, v] : {std::pair{"stock_size", "64"},
                      {"path_positions", "200"},
                      {"positions_per_frame", "60"},
                      {"tool_triangles", "320"}})
    s.lab().params().set(k, v);
  s.lab().params().set("then", second.string());
  s.apply_rebuild();
  ASSERT_TRUE(s.error.empty()) << s.error;
  for (int k = 0; k < 12; ++k) {  // 200 positions (4 frames), then 150 (3 frames)
    s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });
    s.collect_frame();
  }
  auto j = s.lab().dump(dir);
  EXPECT_EQ(j["stages"].size(), 2u);
  EXPECT_EQ(j["stage"], 1);
  EXPECT_EQ(j["positions_done"], 150);
  EXPECT_NE(s.lab().legend().lines.at(1).find("stage 2 of 2"), std::string::npos) << s.lab().legend().lines.at(1);
  std::vector<size_t> shape;
  const auto both = read_npy(dir / "heights.npy", &shape);
  // the same two paths in two runs: the first alone, then the second from its surface (stock_file)
  auto run = [&](const std::vector<std::pair<std::string, std::string>>& set, const std::filesystem::path& out) {
    Session r(validated_options(), make_lab("machining"), Session::Parts{false, false});
    for (auto& [k, v] : set) r.lab().params().set(k, v);
    r.apply_rebuild();
    EXPECT_TRUE(r.error.empty()) << r.error;
    for (int k = 0; k < 4; ++k) {
      r.ctx().submit_now([&](VkCommandBuffer cmd) { r.record_steps(cmd, 1); });
      r.collect_frame();
    }
    std::filesystem::create_directories(out);
    r.lab().dump(out);
    EXPECT_EQ(r.ctx().validation_count(), 0u);
  };
  run({{"stock_size", "64"}, {"path_positions", "200"}, {"positions_per_frame", "60"}, {"tool_triangles", "320"}},
      dir / "first");
  run({{"stock_size", "64"},
       {"positions_per_frame", "60"},
       {"tool_shape", "flat"},
       {"tool_diameter", "4"},
       {"tool_triangles", "64"},
       {"path", "zigzag"},
       {"path_positions", "150"},
       {"stepover", "2"},
       {"stock_file", (dir / "first" / "heights.npy").string()}},
      dir / "second");
  const auto first = read_npy(dir / "first" / "heights.npy"), after = read_npy(dir / "second" / "heights.npy");
  ASSERT_EQ(both.size(), after.size());
  EXPECT_NE(first, after) << "the second path cuts";
  EXPECT_EQ(both, after) << "the stages as the two runs";
  EXPECT_EQ(s.ctx().validation_count(), 0u);
  // refused: a preset of another lab, a double-precision stock
  s.lab().params().set("then", "wave/drop");
  s.apply_rebuild();
  EXPECT_NE(s.error.find("not of machining"), std::string::npos) << s.error;
  s.error.clear();
}
