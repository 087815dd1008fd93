// SIMSURF §16.3 and §16.4.3's viewer in the machining lab: the surface's lattice as triangles, a
// wireframe, lines or points (render/grid_indices.h, drawn by render::StockView); the trackball
// camera (render/orbit_camera.h); the replay of the path once milled (app/labs/machining/replay.h);
// the tool's and the path's statistics (compute/machining/stats.h).
#include "app/core/registry.h"
#include "app/core/session.h"
#include "compute/machining/stats.h"
#include "render/grid_indices.h"
#include "render/machining/stock_view.h"
#include "render/orbit_camera.h"
#include "render/target.h"
#include "tests/helpers.h"

#include <cmath>
#include <set>

using render::LatticePrimitive;

TEST(LatticeIndices, EachPrimitiveHasItsEdgesAndOnlyNeighboursMeet) {
  const uint32_t mx = 7, my = 5, squares = (mx - 1) * (my - 1);
  EXPECT_EQ(render::lattice_indices(LatticePrimitive::Triangles, mx, my).size(), 6u * squares);
  const size_t grid_edges = size_t(mx - 1) * my + size_t(mx) * (my - 1);
  EXPECT_EQ(render::lattice_indices(LatticePrimitive::Lines, mx, my).size(), 2 * grid_edges);
  EXPECT_EQ(render::lattice_indices(LatticePrimitive::Wireframe, mx, my).size(), 2 * (grid_edges + squares));
  EXPECT_TRUE(render::lattice_indices(LatticePrimitive::Points, mx, my).empty());
  for (auto p : {LatticePrimitive::Lines, LatticePrimitive::Wireframe}) {
    auto idx = render::lattice_indices(p, mx, my);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (size_t k = 0; k < idx.size(); k += 2) {
      uint32_t a = idx[k], b = idx[k + 1];
      ASSERT_LT(std::max(a, b), mx * my);
      int di = int(b % mx) - int(a % mx), dj = int(b / mx) - int(a / mx);
      EXPECT_LE(std::abs(di), 1);
      EXPECT_LE(std::abs(dj), 1);
      if (p == LatticePrimitive::Lines) {
        EXPECT_EQ(std::abs(di) + std::abs(dj), 1);  // no diagonal
      }
      EXPECT_TRUE(seen.insert({std::min(a, b), std::max(a, b)}).second) << "an edge drawn twice";
    }
  }
  // the wireframe's edges are the triangles' edges
  auto tris = render::lattice_indices(LatticePrimitive::Triangles, mx, my);
  std::set<std::pair<uint32_t, uint32_t>> of_triangles;
  for (size_t k = 0; k < tris.size(); k += 3)
    for (int e = 0; e < 3; ++e) {
      uint32_t a = tris[k + e], b = tris[k + (e + 1) % 3];
      of_triangles.insert({std::min(a, b), std::max(a, b)});
    }
  auto wire = render::lattice_indices(LatticePrimitive::Wireframe, mx, my);
  std::set<std::pair<uint32_t, uint32_t>> of_wire;
  for (size_t k = 0; k < wire.size(); k += 2)
    of_wire.insert({std::min(wire[k], wire[k + 1]), std::max(wire[k], wire[k + 1])});
  EXPECT_EQ(of_wire, of_triangles);
}

TEST(Trackball, KeepsTheViewWhenSwitchedAndRollsAboutAnyAxis) {
  render::OrbitCamera c;
  c.yaw = 0.7f, c.pitch = 0.4f;
  const glm::vec3 orbit_eye = c.eye();
  const glm::mat4 orbit_vp = c.view_proj(1.5f);
  c.set_trackball(true);
  EXPECT_LT(glm::length(c.eye() - orbit_eye), 1e-5f);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(c.view_proj(1.5f)[i][j], orbit_vp[i][j], 1e-5f);
  const render::Rect vp{0, 0, 400, 300};
  // a horizontal drag through the centre turns about the camera's up: no roll, so the orbit
  // camera takes over with the same eye
  c.roll(200, 150, 260, 150, vp);
  EXPECT_NEAR(glm::length(c.eye() - c.target), c.distance, 1e-5f);
  EXPECT_GT(glm::length(c.eye() - orbit_eye), 0.1f);
  const glm::vec3 turned = c.eye();
  c.set_trackball(false);
  EXPECT_LT(glm::length(c.eye() - turned), 1e-4f);
  // a drag and its reverse cancel; a vertical drag past the pole turns the view upside down
  c.set_trackball(true);
  const glm::quat before = c.turn;
  c.roll(120, 80, 300, 220, vp);
  c.roll(300, 220, 120, 80, vp);
  EXPECT_NEAR(std::fabs(glm::dot(c.turn, before)), 1.0f, 1e-5f);
  for (int k = 0; k < 12; ++k) c.roll(200, 150, 200, 100, vp);
  EXPECT_LT(c.up().y, 0.0f) << "an orbit camera never goes upside down; a trackball does";
  EXPECT_NEAR(glm::length(c.turn), 1.0f, 1e-5f);
}

TEST(ViewerStatistics, ToolAndPathFigures) {
  machining::Mesh m;
  m.vertices = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 3}, {0, 4, 1}};
  auto t = machining::tool_stats(m);
  EXPECT_EQ(t.triangles, 2u);
  EXPECT_EQ(t.bytes, 72u);
  EXPECT_EQ(t.lo, glm::vec3(0, 0, 0));
  EXPECT_EQ(t.hi, glm::vec3(2, 4, 3));
  EXPECT_NEAR(t.mean_edge, (2 + std::sqrt(5.0) + 1 + 2 + std::sqrt(20.0) + 4) / 6, 1e-6);
  EXPECT_NEAR(t.mean_area, (1.0 + 4.0) / 2, 1e-6);
  EXPECT_NEAR(t.min_edge, 1, 1e-9);
  EXPECT_NEAR(t.max_edge, std::sqrt(20.0), 1e-6);
  std::vector<machining::Position> path(3);
  path[0].tip = {0, 0, 1}, path[1].tip = {3, 4, 1}, path[2].tip = {3, 4, -1};
  auto p = machining::path_stats(path);
  EXPECT_EQ(p.positions, 3u);
  EXPECT_NEAR(p.travel, 7.0, 1e-9);
  EXPECT_FALSE(p.five_axis);
  EXPECT_EQ(p.bytes, 3 * 3 * sizeof(float));
  path[1].axis = glm::normalize(glm::vec3(0, 1, 1));
  EXPECT_TRUE(machining::path_stats(path).five_axis);
  EXPECT_EQ(machining::path_stats(path).bytes, 3 * 6 * sizeof(float));
}

class Viewer : public GpuTest {};

// A flat 16 x 16 stock seen from above: triangles cover it, the wireframe and the lines leave the
// cells' insides to the background (the lines their diagonals too), points fewer pixels still.
TEST_F(Viewer, ThePrimitivesDrawTheLatticeAsTheySay) {
  render::StockView view(ctx());
  render::OffscreenTarget target(ctx(), 240, 240);
  render::StockScene s;
  s.nx = s.ny = 16, s.d = 1, s.top = 0, s.show_tool = false, s.display = render::StockDisplay::Shaded;
  gpu::Buffer heights(ctx(), 16 * 16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  heights.upload(std::vector<uint32_t>(16 * 16, machining::height_key(0.0f)));
  gpu::Buffer tool(ctx(), 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  render::OrbitCamera camera;
  camera.pitch = 1.5f, camera.yaw = 0, camera.distance = 2.4f;
  auto lit = [&](LatticePrimitive p, bool& cell_centre_lit) {
    s.primitive = p;
    ctx().submit_now([&](VkCommandBuffer cmd) {
      render::begin_rendering(cmd, target.frame(), render::kBackground);
      view.draw(cmd, target.frame(), heights, tool, s, camera);
      render::end_rendering(cmd);
    });
    auto rgba = target.read_rgba();
    uint32_t n = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) n += rgba[i] > 60 || rgba[i + 1] > 60;
    size_t centre = (size_t(120) * 240 + 120) * 4;  // the middle of the stock: of its 15 x 15 cells, the middle one's
    cell_centre_lit = rgba[centre] > 60;
    return n;
  };
  bool t_centre = false, w_centre = false, l_centre = false, p_centre = false;
  uint32_t triangles = lit(LatticePrimitive::Triangles, t_centre), wire = lit(LatticePrimitive::Wireframe, w_centre),
           lines = lit(LatticePrimitive::Lines, l_centre), points = lit(LatticePrimitive::Points, p_centre);
  EXPECT_GT(triangles, 240u * 240u / 4);
  EXPECT_GT(triangles, wire);
  EXPECT_GT(wire, lines);
  EXPECT_GT(lines, points);
  EXPECT_GT(points, 16u * 16u / 2);
  EXPECT_TRUE(t_centre);  // 15 x 15 cells: the middle of the picture is the middle of a cell
  EXPECT_FALSE(l_centre);
  EXPECT_FALSE(p_centre);
}

// Milled in one frame, the tool replays the path in replay_seconds at 60 frames a second.
TEST(MachiningReplay, TheToolTravelsThePathAgainInTheTimeAsked) {
  Session s(validated_options(), make_lab("machining"), Session::Parts{false, false});
  for (auto [k, v] : {std::pair{"stock_size", "64"},
                      {"path_positions", "600"},
                      {"positions_per_frame", "600"},
                      {"replay_seconds", "1"}})
    s.lab().params().set(k, v);
  s.apply_rebuild();
  ASSERT_TRUE(s.error.empty()) << s.error;
  auto frames = [&](int n) {
    for (int k = 0; k < n; ++k) {
      s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });
      s.collect_frame();
    }
  };
  auto at = [&] { return s.lab().legend().lines.at(1); };
  frames(1);  // the whole path milled
  EXPECT_EQ(at().find("replay"), std::string::npos) << at();
  frames(30);  // 600 positions in 60 frames: 10 a frame, the first frame starting it
  EXPECT_NE(at().find("replay: the tool at 301"), std::string::npos) << at();
  frames(40);
  EXPECT_NE(at().find("replay: the tool at 600"), std::string::npos) << at();
  EXPECT_EQ(s.ctx().validation_count(), 0u);
}

// SIMSURF §5.5.3 on a cube of 12 triangles and 8 corners, in single precision (S = 4).
TEST(ViewerStatistics, TheToolsMemoryIndexedAndAsAList) {
  machining::Mesh cube;
  const glm::vec3 c[8] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int faces[12][3] = {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                            {2, 3, 7}, {2, 7, 6}, {1, 2, 6}, {1, 6, 5}, {0, 3, 7}, {0, 7, 4}};
  for (auto& f : faces)
    for (int k : f) cube.vertices.push_back(c[k]);
  auto m = machining::mesh_memory(cube, 4);
  EXPECT_EQ(m.triangles, 12u);
  EXPECT_EQ(m.vertices, 8u);
  EXPECT_EQ(m.list, 9 * 4 * 12);
  EXPECT_EQ(m.indexed, 3 * 4 * 8 + 12 * 12);
  EXPECT_EQ(m.indexed16, 3 * 4 * 8 + 6 * 12);
  EXPECT_EQ(m.text, 3 * 4 * 14 + 12 * 12);
  EXPECT_EQ(m.printed, 2 + 12 + 3 * 4 * 12);
}
