// The CPU engine's schedules (compute/machining/zbuffer.h, CpuSchedule; SIMSURF §6.2's OpenMP
// loop): static, dynamic and guided hand the bands of rows out differently and mill the same
// heights bit for bit, in single and double precision, 3-axis (bands) and 5-axis (runs).
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"

#include <cmath>

using namespace machining;

TEST(CpuSchedule, EveryScheduleMillsTheSameHeights) {
  Stock s;
  s.nx = 80, s.ny = 260, s.d = 0.25f;
  auto tool = make_tool("sphere", 3.0f, 320);
  for (bool five_axis : {false, true}) {
    auto path = generate_path("zigzag", 20.0f, 500, 1.0f, 3);
    for (auto& p : path) p.tip += glm::vec3(10.0f, 32.5f, 0.0f);
    if (five_axis)
      for (size_t i = 0; i < path.size(); ++i)
        path[i].axis = glm::normalize(glm::vec3(0.3f * std::sin(float(i)), 0.2f, 1.0f));
    std::vector<float> want(size_t(s.nx) * s.ny, s.top);
    mill_cpu(s, want, tool, path, 3);
    size_t cut = 0;
    for (float h : want) cut += h < s.top;
    ASSERT_GT(cut, want.size() / 10) << "the path cuts the stock";
    std::vector<double> want64(want.size(), double(s.top));
    mill_cpu(s, want64, tool, path, 3);
    for (auto schedule : {CpuSchedule::Static, CpuSchedule::Guided, CpuSchedule::Dynamic})
      for (uint32_t threads : {1u, 3u, 7u}) {
        std::vector<float> h(want.size(), s.top);
        mill_cpu(s, h, tool, path, threads, HitTest::Edge, Frame::Tool, schedule);
        EXPECT_EQ(h, want) << int(schedule) << ", " << threads << " threads, five axis " << five_axis;
        std::vector<double> h64(want.size(), double(s.top));
        mill_cpu(s, h64, tool, path, threads, HitTest::Edge, Frame::Tool, schedule);
        EXPECT_EQ(h64, want64) << int(schedule) << ", " << threads << " threads (double)";
      }
  }
}
