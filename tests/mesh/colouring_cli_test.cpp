// The colouring way of writing through an indirection (GMlib manual §2.5) from the command
// line: the examples that ask for it run headless, validation on, and sum as the gather does.
#include "compute/mesh/colouring.h"
#include "compute/mesh/generate.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {
nlohmann::json colouring_dump_state(const std::filesystem::path& dump) {
  return nlohmann::json::parse(std::ifstream(dump / "params.json"))["state"];
}
}  // namespace

TEST(Cli, MeshLabWritesByColour) {
  auto dir = scratch("meshcolour");
  auto r =
      run_process(vklab_args("--headless --lab mesh --set \"example=star areas\" --set grid_size=32 --steps 1 "
                             "--dump " +
                             (dir / "gather").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  r =
      run_process(vklab_args("--headless --validate --lab mesh --set \"example=star areas (colouring)\" "
                             "--set grid_size=32 --steps 2 --dump " +
                             (dir / "colour").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto gather = colouring_dump_state(dir / "gather"), colour = colouring_dump_state(dir / "colour");
  const mesh::Mesh surface = mesh::bumpy_grid(32);  // the lab's mesh for it at grid_size 32
  uint32_t colours = mesh::colour_elements(*surface.find(mesh::Kind::Triangles), surface.vertices()).colours();
  EXPECT_GE(colours, 6u) << "6 triangles around an inner vertex";
  EXPECT_EQ(colour["kernel_colours"], nlohmann::json::array({0, colours})) << "the clear, then a launch a colour";
  EXPECT_EQ(gather["kernel_colours"], nlohmann::json::array({0, 0}));
  double sum = gather["reductions_x"]["Star"]["sum"].get<double>();
  EXPECT_GT(sum, 3.0) << "three times the bumpy surface's area, a little more than the unit square's";
  EXPECT_NEAR(colour["reductions_x"]["Star"]["sum"].get<double>(), sum, 1e-5 * sum)
      << "cleared each run: the same sums as the gather";

  r =
      run_process(vklab_args("--headless --validate --lab mesh --set \"example=tetrahedra: volumes (colouring)\" "
                             "--set grid_size=16 --steps 1 --dump " +
                             (dir / "tets").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto tets = colouring_dump_state(dir / "tets");
  const mesh::Mesh cube = mesh::cube(4, mesh::Kind::Tetrahedra, 0.25);  // the lab's at grid_size 16
  colours = mesh::colour_elements(*cube.find(mesh::Kind::Tetrahedra), cube.vertices()).colours();
  EXPECT_GE(colours, 24u) << "Kuhn's cube: 24 tetrahedra around an inner vertex";
  EXPECT_EQ(tets["kernel_colours"], nlohmann::json::array({0, colours}));
  EXPECT_NEAR(tets["reductions_x"]["Dual"]["sum"].get<double>(), 1.0, 1e-5) << "the dual cells fill the unit cube";
}
