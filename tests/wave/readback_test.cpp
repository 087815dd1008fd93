// Bleton 2005's display path for the wave (table 4.2; compute/measure/host_trip.h): the heights
// through the CPU and back give the same picture, in both views, and the run says the trip's cost.
#include "tests/helpers.h"

TEST(Cli, WaveReadBackDrawsTheSamePictureInBothViews) {
  auto dir = scratch("wave-readback");
  for (const char* view : {"3d", "top"}) {
    SCOPED_TRACE(view);
    Picture pictures[2];
    int k = 0;
    for (const char* path : {"direct", "readback"}) {
      auto png = dir / (std::string(view) + "-" + path + ".png");
      auto r =
          run_process(vklab_args("--headless --validate --lab wave --set size=64 --set view=" + std::string(view) +
                                 " --set display=" + path + " --steps 12 --size 320x240 --capture " + png.string()));
      ASSERT_EQ(r.code, 0) << r.err;
      EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
      bool said = r.out.find("wave: display through the CPU (Bleton 2005, table 4.2): ") != std::string::npos;
      EXPECT_EQ(said, k == 1) << r.out;
      pictures[k++] = load_picture(png);
    }
    ASSERT_FALSE(pictures[0].empty());
    EXPECT_EQ(pictures[0].rgba, pictures[1].rgba);
  }
}
