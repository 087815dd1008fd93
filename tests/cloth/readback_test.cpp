// Bleton 2005's display path (table 4.1): the particles through the CPU and back
// (compute/measure/host_trip.h). The copies are the simulation's bit for bit, the picture drawn from
// them is the picture drawn from the GPU's buffers, and the bench times the trip beside the
// direct path and the step alone, with the thesis's ratio beside.
#include "app/core/lab.h"
#include "compute/cloth/cloth.h"
#include "compute/measure/host_trip.h"
#include "tests/helpers.h"

#include <cstring>

class ClothReadBack : public GpuTest {};

TEST_F(ClothReadBack, TheCopiesAreThePositionsAndNormalsBitForBit) {
  cloth::Config c;
  c.width = 24, c.height = 20;
  cloth::Simulation sim(ctx(), c);
  auto p = cloth::initial_positions(c, "drape");
  sim.set_state(p, p);
  ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 7); });
  gpu::HostTrip copy;
  auto& t = copy.carry(ctx(), {&sim.position_buffer(), &sim.normal_buffer()});
  EXPECT_GE(t.read_ms, 0);
  EXPECT_GE(t.upload_ms, 0);
  EXPECT_DOUBLE_EQ(t.bytes, 4.0 * 16 * c.n());  // positions and normals, down and up
  auto x = sim.positions(), cx = copy.copy(0).download<glm::vec4>();
  auto n = sim.normal_buffer().download<glm::vec4>(), cn = copy.copy(1).download<glm::vec4>();
  ASSERT_EQ(cx.size(), x.size());
  ASSERT_EQ(cn.size(), n.size());
  EXPECT_EQ(std::memcmp(cx.data(), x.data(), x.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(std::memcmp(cn.data(), n.data(), n.size() * sizeof(glm::vec4)), 0);
  EXPECT_NE(x.front(), p.front());  // the steps moved it: a copy of the start would not do
  // A cloth of another size: the copies follow it.
  c.width = c.height = 8;
  cloth::Simulation small(ctx(), c);
  auto q = cloth::initial_positions(c, "hang");
  small.set_state(q, q);
  copy.carry(ctx(), {&small.position_buffer(), &small.normal_buffer()});
  EXPECT_EQ(copy.copy(0).download<glm::vec4>(), small.positions());
}

TEST_F(ClothReadBack, TheBenchTimesTheTripBesideTheDirectPathAndTheThesis) {
  auto lab = make_lab("cloth");
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"cloth.step+display.readback"};
  auto rows = lab->bench(ctx(), o);
  ASSERT_EQ(rows.size(), 1u);  // 16², the quick bench's smallest
  for (auto& r : rows) {
    SCOPED_TRACE(r.size);
    EXPECT_EQ(r.pass, "cloth.step+display.readback");
    EXPECT_GT(r.median_ms, 0);
    const auto& ref = r.reference;
    for (const char* k : {"step_wall_ms", "direct_wall_ms", "read_ms", "upload_ms", "bus_gbps"})
      EXPECT_GT(ref.at(k).get<double>(), 0) << k;
    EXPECT_DOUBLE_EQ(ref["readback_over_direct"].get<double>(), r.median_ms / ref["direct_wall_ms"].get<double>());
    EXPECT_DOUBLE_EQ(ref["display_over_step"].get<double>(), r.median_ms / ref["step_wall_ms"].get<double>());
    EXPECT_DOUBLE_EQ(ref["bus_bytes"].get<double>(), 4.0 * 16 * r.elements);
    ASSERT_TRUE(ref.contains("thesis"));
  }
  EXPECT_NEAR(rows[0].reference["thesis"]["display_over_step"].get<double>(), 10.7 / 7.9, 1e-12);
}

// The window's and headless's knob: the same pixels as the direct path (a headless picture is
// drawn after its steps), and the trip's cost said.
TEST(Cli, ClothReadBackDrawsTheSamePictureAndSaysWhatItCost) {
  auto dir = scratch("cloth-readback");
  Picture pictures[2];
  int k = 0;
  for (const char* path : {"direct", "readback"}) {
    auto png = dir / (std::string(path) + ".png");
    auto r =
        run_process(vklab_args("--headless --validate --lab cloth --set size=32 --set display=" + std::string(path) +
                               " --steps 30 --size 320x240 --capture " + png.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    bool said = r.out.find("cloth: display through the CPU (Bleton 2005, table 4.1): ") != std::string::npos;
    EXPECT_EQ(said, k == 1) << r.out;
    pictures[k++] = load_picture(png);
  }
  ASSERT_FALSE(pictures[0].empty());
  EXPECT_EQ(pictures[0].rgba, pictures[1].rgba);
}
