// Recording (issue 15): a headless run written as an H.264 MP4 (read back through
// libavformat: codec, size, rate and every frame) or as numbered PNGs carrying the run.
#include "compute/io/png_text.h"
#include "render/ffmpeg.h"
#include "render/recorder.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

TEST(Record, ThirtyFramesAsAnMp4AndAsPngs) {
  try {
    render::ffmpeg();
  } catch (const std::exception& e) {  // scripts/install-deps.sh installs them; a lent GPU machine may not have them
    GTEST_SKIP() << e.what();
  }
  auto dir = scratch("record");
  auto mp4 = dir / "wave.mp4";
  auto r = run_process(vklab_args("--headless --validate --lab wave --set size=64 --steps 30 --size 320x240 --record " +
                                  mp4.string() + " --record-fps 24"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("frame 30 of 30"), std::string::npos) << "no progress line: " << r.err;
  EXPECT_EQ(r.err.find("libx264"), std::string::npos) << "the encoder's log leaks: " << r.err;
  EXPECT_NE(r.out.find("30 frames of 320x240 at 24 a second, H.264 (libx264)"), std::string::npos)
      << "the encoder said: " << r.out;
  auto v = render::probe_video(mp4);
  EXPECT_EQ(v.codec, "h264");
  EXPECT_EQ(v.width, 320u);
  EXPECT_EQ(v.height, 240u);
  EXPECT_EQ(v.frames, 30u);
  EXPECT_NEAR(v.fps, 24.0, 1e-9);

  // odd sizes are cut to even ones for H.264
  auto odd = dir / "odd.mp4";
  r =
      run_process(vklab_args("--headless --lab diffusion --set size=32 --steps 3 --set steps_per_frame=1 --size 161x99 "
                             "--record " +
                             odd.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  v = render::probe_video(odd);
  EXPECT_EQ(v.width, 160u);
  EXPECT_EQ(v.height, 98u);
  EXPECT_EQ(v.frames, 3u);

  // a folder: one PNG a frame, each with the run's manifest at its step
  auto frames = dir / "frames";
  r =
      run_process(vklab_args("--headless --lab diffusion --set size=32 --set steps_per_frame=4 --steps 12 --size 64x64 "
                             "--record " +
                             frames.string() + "/"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (int k = 0; k < 3; ++k) {
    auto png = frames / ("frame-00000" + std::to_string(k) + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    std::stringstream bytes;
    bytes << std::ifstream(png, std::ios::binary).rdbuf();
    auto manifest = nlohmann::json::parse(io::read_png_text(bytes.str(), "vklab", png.string()));
    EXPECT_EQ(manifest["lab"], "diffusion");
    EXPECT_EQ(manifest["step"], 4 * (k + 1));
  }
  EXPECT_FALSE(fs::exists(frames / "frame-000003.png"));

  // not a video or a folder; --record with bench
  r = run_process(vklab_args("--headless --lab diffusion --steps 2 --record " + (dir / "x.avi").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("record to FILE.mp4 or a folder/"), std::string::npos) << r.err;
  r = run_process(vklab_args("bench --record x.mp4"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--record goes with --headless or the window"), std::string::npos) << r.err;
}
