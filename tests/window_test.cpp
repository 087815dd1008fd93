// The real window under Xvfb: frames render, the window survives resize, minimise and
// vsync toggles, the capture shows the panel and the lab's picture, validation stays silent.
#include "render/ffmpeg.h"
#include "render/recorder.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace {
// The suite's machines have Xvfb (scripts/install-deps.sh); a lent GPU machine may not.
bool have_xvfb() {
  static const bool yes = run_process("command -v xvfb-run").code == 0;
  return yes;
}
}  // namespace

TEST(Window, RendersCapturesAndSurvivesResizeMinimiseVsync) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = std::filesystem::temp_directory_path() / ("vklab-window-" + std::to_string(::getpid()) + ".png");
  std::filesystem::remove(png);
  auto r = run_process(
      "xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
      " --validate --frames 60 --shake --size 1000x640 --set steps_per_frame=2 --with-interface --capture " +
      png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty()) << "no PNG at " << png;
  EXPECT_EQ(pic.w, 1000);
  EXPECT_EQ(pic.h, 640);
  std::set<uint32_t> left, right;  // distinct colours: the panel's text, the heat picture
  size_t hot = 0;
  pic.each(0, 0, 250, pic.h, [&](const unsigned char* p) { left.insert(rgb(p)); });
  pic.each(250, 0, pic.w, pic.h, [&](const unsigned char* p) { right.insert(rgb(p)); });
  pic.each(501, 0, pic.w, pic.h, [&](const unsigned char* p) { hot += p[0] > 150 && p[0] > p[2]; });  // warm colours
  EXPECT_GT(left.size(), 20u) << "the ImGui panel should be drawn";
  EXPECT_GT(right.size(), 50u) << "the heat map should be drawn";
  EXPECT_GT(hot, 200u) << "hot spots should be visible";
}

// The linear algebra lab in the window: CG runs frame by frame and its solution is drawn.
TEST(Window, LinalgCgDrawsItsSolution) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = std::filesystem::temp_directory_path() / ("vklab-window-linalg-" + std::to_string(::getpid()) + ".png");
  std::filesystem::remove(png);
  auto r = run_process(
      "xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
      " --validate --lab linalg --set operator=cg --set side=32 --frames 30 --size 900x600 --capture " + png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t red = 0, blue = 0;  // coolwarm: hot spots of the solution on a cold background
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
    red += p[0] > 150 && p[2] < 100;
    blue += p[2] > 150 && p[0] < 100;
  });
  EXPECT_GT(red, 500u);
  EXPECT_GT(blue, 5000u);
}

// The wave lab in the window: the water (the floor's blue through the surface) is drawn
// in both views from the GPU height buffer.
TEST(Window, WaveDrawsTheWater) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  for (std::string view : {"3d", "top"}) {
    auto png =
        std::filesystem::temp_directory_path() / ("vklab-window-wave-" + view + std::to_string(::getpid()) + ".png");
    std::filesystem::remove(png);
    auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                         " --validate --lab wave --set size=64 --set view=" + view +
                         " --frames 20 --size 900x600 --capture " + png.string());
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    auto pic = load_picture(png);
    ASSERT_FALSE(pic.empty());
    size_t water = 0;
    std::set<uint32_t> colours;
    pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
      water += p[2] > 150 && p[1] > 120 && p[0] < 180;  // pool tiles' light blue
      colours.insert(rgb(p));
    });
    EXPECT_GT(water, 20000u) << view;
    EXPECT_GT(colours.size(), 200u) << view << ": refraction and light should vary the colours";
  }
}

// The cloth lab in the window: the tartan (red) drape over the sphere is drawn.
TEST(Window, ClothDrawsTheDrape) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = std::filesystem::temp_directory_path() / ("vklab-window-cloth-" + std::to_string(::getpid()) + ".png");
  std::filesystem::remove(png);
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --lab cloth --set size=32 --frames 90 --size 900x600 --capture " + png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t red = 0;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) { red += p[0] > 90 && p[1] < 50 && p[2] < 60; });
  EXPECT_GT(red, 3000u) << "the tartan cloth";
}

// The machining lab in the window: the milled spiral (depth-of-cut colours) and the tool.
TEST(Window, MachiningDrawsTheStock) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = std::filesystem::temp_directory_path() / ("vklab-window-mach-" + std::to_string(::getpid()) + ".png");
  std::filesystem::remove(png);
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --lab machining --set stock_size=96 --set path_positions=600 "
                       "--set positions_per_frame=60 --frames 15 --size 900x600 --capture " +
                       png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t cut = 0, stock = 0;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
    cut += p[0] > 150 && p[2] < 120;                                 // warm depth-of-cut colours
    stock += std::abs(p[0] - p[2]) < 20 && p[0] > 90 && p[0] < 200;  // steel grey
  });
  EXPECT_GT(cut, 2000u) << "the milled spiral";
  EXPECT_GT(stock, 2000u) << "the uncut stock";
}

// The mesh lab in the window: the generated surface drawn with its colour field and edges.
TEST(Window, MeshDrawsTheSurface) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = std::filesystem::temp_directory_path() / ("vklab-window-mesh-" + std::to_string(::getpid()) + ".png");
  std::filesystem::remove(png);
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --lab mesh --set grid_size=24 --set example=areas --frames 10 --size 900x600 "
                       "--capture " +
                       png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  std::set<uint32_t> colours;
  size_t lit = 0;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
    colours.insert(rgb(p));
    lit += p[0] + p[1] + p[2] > 150;
  });
  EXPECT_GT(lit, 5000u) << "the surface";
  EXPECT_GT(colours.size(), 300u) << "colour map, light and edges";
}

// The mesh lab's volumes in the window: a cube of tetrahedra cut by the clip plane, the
// uncovered elements coloured by their volume; the picture changes where the cut is.
TEST(Window, MeshClipsAVolume) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto shot = [](const std::string& extra, const std::string& name) {
    auto png =
        std::filesystem::temp_directory_path() / ("vklab-window-" + name + "-" + std::to_string(::getpid()) + ".png");
    std::filesystem::remove(png);
    auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                         " --validate --lab mesh --set 'example=tetrahedra: volumes' --set grid_size=24 " + extra +
                         " --frames 8 --size 900x600 --capture " + png.string());
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    std::vector<uint32_t> out;
    auto pic = load_picture(png);
    pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) { out.push_back(rgb(p)); });
    std::filesystem::remove(png);
    return out;
  };
  auto whole = shot("", "mesh-whole"), cut = shot("--set clip=true --set clip_axis=z --set clip_at=0.5", "mesh-cut");
  ASSERT_EQ(whole.size(), cut.size());
  ASSERT_FALSE(whole.empty());
  size_t differ = 0, lit = 0;
  std::set<uint32_t> colours(cut.begin(), cut.end());
  for (size_t i = 0; i < cut.size(); ++i) {
    differ += whole[i] != cut[i];
    lit += (cut[i] & 0xff) + (cut[i] >> 8 & 0xff) + (cut[i] >> 16 & 0xff) > 150;
  }
  EXPECT_GT(lit, 5000u) << "the lower half of the cube";
  EXPECT_GT(differ, 5000u) << "the upper half gone, the cut's elements shown";
  EXPECT_GT(colours.size(), 200u) << "colour map, light and edges";
}

// The watchdog in the window: the lab pauses, the stop is said once on stderr (not every
// frame), the window keeps running and exits normally.
TEST(Window, BlowUpIsSaidOnceAndTheWindowKeepsRunning) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --frames 40 --size 900x600 --set size=32 --set cd=2 --set initial=random"
                       " --set steps_per_frame=20");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string said = "vklab: stopped: diffusion is growing without bound";
  ASSERT_NE(r.err.find(said), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said), r.err.rfind(said)) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  // the stop pauses the transport: the step count stays within a frame of where it stopped
  auto after = r.err.find("after ", r.err.find(said));
  ASSERT_NE(after, std::string::npos) << r.err;
  unsigned long stopped_at = std::stoul(r.err.substr(after + 6));
  auto line = r.out.find("window: 40 frames, lab diffusion, ");
  ASSERT_NE(line, std::string::npos) << r.out;
  unsigned long steps = std::stoul(r.out.substr(line + 34));
  EXPECT_LE(steps, stopped_at + 20) << r.out;
  EXPECT_LT(steps, 40u * 20 - 100) << "the lab went on stepping after its stop: " << r.out;
  EXPECT_NE(r.out.find(std::to_string(steps) + " steps, paused"), std::string::npos) << r.out;
}

// The transport's keys, pressed through ImGui's key state as GLFW's callback would
// (--keys): Space pauses, S and Right step once, R restarts, C captures, Tab hides the
// sidebar, a digit switches labs; the window reports its frames and steps when it closes.
TEST(Window, KeysDriveTheTransport) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("keys");
  auto xvfb = "cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe();
  // diffusion runs 20 steps a frame: 10 frames, a pause, two single steps
  auto r = run_process(xvfb + " --validate --frames 40 --size 800x500 --keys 10:space,20:s,25:right");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("window: 40 frames, lab diffusion, 202 steps, paused"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  // Space again plays on; R restarts the count; C writes a capture into captures/
  r = run_process(xvfb + " --frames 40 --size 800x500 --keys 5:space,8:space,10:r,20:c");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("window: 40 frames, lab diffusion, 600 steps\n"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::is_directory(dir / "captures"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "captures"), fs::directory_iterator()), 1);
  // 4 switches to the wave lab, Tab hides the sidebar: the water fills the left of the window
  auto png = dir / "wave.png";
  r = run_process(xvfb + " --validate --frames 20 --size 800x500 --keys 5:tab,8:4 --capture " + png.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("lab wave"), std::string::npos) << r.out;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t water = 0;  // the pool's light blue where the sidebar would be
  pic.each(0, pic.h / 4, 250, 3 * pic.h / 4, [&](const unsigned char* p) { water += p[2] > 150; });
  EXPECT_GT(water, 2000u);
  // a key name it does not know is a usage error
  r = run_process(vklab_exe() + " --frames 5 --keys 3:q");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown key 'q'"), std::string::npos) << r.err;
}

// Keys come from GLFW's events, not a once-a-frame look at the keyboard: taps faster than
// frames all count (three S in one frame are three steps); and a lab opens running, whatever
// the last one was doing.
TEST(Window, EveryTapCountsAndALabOpensRunning) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("keys-taps");
  auto xvfb = "cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe();
  auto r = run_process(xvfb + " --frames 30 --size 800x500 --keys 10:space,20:s,20:s,20:s");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("window: 30 frames, lab diffusion, 203 steps, paused"), std::string::npos) << r.out;
  // a lab opens running whatever the last one was doing: paused in diffusion, 2 opens linalg
  r = run_process(xvfb + " --frames 20 --size 800x500 --keys 3:space,6:2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("lab linalg"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(", paused"), std::string::npos) << r.out;
}

// B runs the lab's bench beside the frame loop: frames go on while it runs (the window does
// not freeze), the lab waits meanwhile, the rows land in bench/; Esc cancels after the row
// being timed. Both devices' validation stays silent.
TEST(Window, BenchRunsBesideTheFrameLoopAndCancels) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("window-bench");
  auto xvfb = "cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe();
  auto r = run_process(xvfb + " --validate --frames 200 --size 800x500 --keys 3:b");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("window: bench started at frame 3\n"), std::string::npos) << r.out;
  auto at = r.out.find("window: bench finished at frame ");
  ASSERT_NE(at, std::string::npos) << r.out;
  unsigned long finished = std::stoul(r.out.substr(at + 32));
  EXPECT_GT(finished, 5u) << "frames should go on while the bench runs";
  EXPECT_EQ(r.out.find("(cancelled)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("validation (bench): 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vklab: validation: 0 messages"), std::string::npos) << r.err;
  std::ifstream in(dir / "bench" / "bench-diffusion.json");
  auto j = nlohmann::json::parse(in);
  EXPECT_GE(j["labs"]["diffusion"].size(), 2u);
  EXPECT_EQ(j["cancelled"], false);
  EXPECT_GT(j["peaks"]["fp32_gflops"].get<double>(), 0.0) << "no cached roofs: a quick bench measures them";
  for (auto& row : j["labs"]["diffusion"]) EXPECT_GT(row["roofline"]["percent_of_bound"].get<double>(), 0.0);
  // diffusion runs 20 steps a frame, none while its bench ran
  auto steps_at = r.out.find(", lab diffusion, ");
  ASSERT_NE(steps_at, std::string::npos);
  unsigned long steps = std::stoul(r.out.substr(steps_at + 17));
  EXPECT_GE(steps, 20u * (200u - finished + 3u)) << r.out;  // the frame it finished in may or may not step
  EXPECT_LE(steps, 20u * (200u - finished + 4u)) << r.out;

  r = run_process(xvfb + " --frames 60 --size 800x500 --keys 3:b,4:escape");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rows in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(cancelled)"), std::string::npos) << r.out;
}

// Left goes back a frame through the kept snapshots (pausing), Right replays one.
TEST(Window, LeftAndRightScrubThroughTheLastFrames) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto xvfb = "xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe();
  // diffusion, 20 steps a frame: 10 frames (200 steps), paused, back 3 frames, forward 1 (a key is
  // pressed again after a frame up)
  auto r =
      run_process(xvfb + " --validate --frames 24 --size 800x500 --keys 10:space,12:left,14:left,16:left,18:right");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("window: 24 frames, lab diffusion, 160 steps, paused"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
}

// The UI scale comes from the settings file (or the monitor's, 1 under Xvfb); a malformed
// file is said and ignored.
TEST(Window, UiScaleComesFromTheSettingsFile) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("window-scale");
  auto xvfb = "cd " + dir.string() + " && VKLAB_CONFIG_DIR=" + dir.string() +
              " xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() + " --frames 5 --size 800x500";
  auto r = run_process(xvfb);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("window: ui scale 1.00"), std::string::npos) << r.out;
  std::ofstream(dir / "settings.json") << R"({"ui_scale": 1.5, "panel_width": 300})";
  r = run_process(xvfb);
  ASSERT_EQ(r.code, 0) << r.err;
  // 300 px at 1.5 would be 450: the sidebar stops at half the 800-px window
  EXPECT_NE(r.out.find("window: ui scale 1.50, sidebar 400 px, picture 400 px"), std::string::npos) << r.out;
  std::ofstream(dir / "settings.json") << "{ not json";
  r = run_process(xvfb);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("ignoring the settings in"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("window: ui scale 1.00"), std::string::npos) << r.out;
}

// The window records its picture (the sidebar left out) every frame: an H.264 MP4 of the
// lab's area, read back through libavformat.
TEST(Window, RecordsThePictureEveryFrame) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  try {
    render::ffmpeg();
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  auto mp4 = scratch("window-record") / "w.mp4";
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --frames 40 --size 1000x640 --record " + mp4.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("recorded " + mp4.string() + ": 40 frames"), std::string::npos) << r.out;
  auto v = render::probe_video(mp4);
  EXPECT_EQ(v.codec, "h264");
  EXPECT_EQ(v.frames, 40u);
  EXPECT_EQ(v.height, 640u);
  EXPECT_GT(v.width, 400u);  // the picture: the window less the sidebar
  EXPECT_LT(v.width, 1000u);
}

// V (the Picture tab's Record / Stop recording) starts and stops a recording between frames;
// the window, its panel and its lab go on after the stop (it once crashed reading the freed
// recorder), and the MP4 holds the frames in between.
TEST(Window, RecordingStartsAndStopsAndTheWindowGoesOn) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  try {
    render::ffmpeg();
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  auto dir = scratch("window-record-toggle");
  auto r = run_process("cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --frames 30 --size 900x560 --tab Picture --keys 5:v,15:v");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("window: 30 frames"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  ASSERT_TRUE(fs::is_directory(dir / "recordings"));
  std::vector<fs::path> files(fs::directory_iterator(dir / "recordings"), fs::directory_iterator());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(r.out.find("recorded " + fs::relative(files[0], dir).string() + ": 10 frames"), std::string::npos) << r.out;
  EXPECT_EQ(render::probe_video(files[0]).frames, 10u);
}

// At UI scale 1.75 in the default 1280x800 window the sidebar keeps to half the window and
// the transport bar stays inside the picture (its items go to a second line).
TEST(Window, LargeUiScaleKeepsThePictureAndTheTransportBar) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("window-scale-175");
  std::ofstream(dir / "settings.json") << R"({"ui_scale": 1.75})";
  auto r = run_process("cd " + dir.string() + " && VKLAB_CONFIG_DIR=" + dir.string() +
                       " xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() + " --frames 5");
  ASSERT_EQ(r.code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m,
                                std::regex("ui scale 1.75, sidebar ([0-9]+) px, picture ([0-9]+) px, transport bar "
                                           "([0-9]+) px")))
      << r.out;
  int sidebar = std::stoi(m[1]), picture = std::stoi(m[2]), bar = std::stoi(m[3]);
  EXPECT_LE(sidebar, 640);
  EXPECT_EQ(sidebar + picture, 1280);
  EXPECT_GT(bar, 0);
  EXPECT_LE(bar, picture - 16);
  // the seven tabs' names do not fit at 1.75: their short names, never cut ("Timin...")
  EXPECT_NE(r.out.find("tab names short"), std::string::npos) << r.out;
  r = run_process("cd " + dir.string() + " && VKLAB_CONFIG_DIR=" + (dir / "defaults").string() +
                  " xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() + " --frames 3");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tab names full"), std::string::npos) << r.out;  // at scale 1 they fit
}

// The Inspect tab from the window: I opens it and reads the chosen array back once; the
// window prints the summary it shows. Diffusion's field starts as hot spots of 1 on 0 and
// only spreads, so its range stays inside [0, 1] with no NaN; the mesh lab's first array is
// the coordinates of the bracket (vec4, w = 0).
TEST(Window, KeyIReadsTheInspectedArray) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("inspect-key");
  auto xvfb = "cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe();
  auto png = dir / "inspect.png";
  auto r = run_process(xvfb + " --validate --frames 20 --size 900x560 --keys 8:i --capture " + png.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto at = r.out.find("inspect: temperature as float at step ");
  ASSERT_NE(at, std::string::npos) << r.out;
  double lo = -1, hi = -1;
  size_t count = 0, nans = 1;
  auto line = r.out.substr(r.out.find(':', at + 40) + 1);
  ASSERT_EQ(std::sscanf(line.c_str(), " %zu values, min %lf, max %lf, NaN %zu", &count, &lo, &hi, &nans), 4) << line;
  EXPECT_EQ(count, 256u * 256);
  EXPECT_GE(lo, 0.0);
  EXPECT_LE(hi, 1.0);
  EXPECT_GT(hi, 0.1);
  EXPECT_EQ(nans, 0u);
  EXPECT_TRUE(fs::exists(png));
  // without I nothing is read back
  r = run_process(xvfb + " --frames 10 --size 900x560 --tab Inspect");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("inspect:"), std::string::npos) << r.out;
}

// Every lab at its defaults and with each shipped preset, three times over, in the window (a long
// class session in minutes; vklab --soak 1800 is the half-hour run the README names). Two
// runs: without validation memory (the heap included) and frame time of the last round match the
// one before; with it (synchronization validation too) every visit stays silent. The heap and the
// frame time are judged only in the first: the synchronization validation layer's own state grows
// with every lab rebuild, and its checks slow with it (app/window/soak.cpp).
TEST(WindowSoak, EveryLabAndPresetThriceWithoutGrowth) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto r = run_process("xvfb-run -a -s '-screen 0 1400x900x24' " + vklab_exe() + " --soak 150");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" rounds, host "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GREW"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; heap "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the heap grew"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not judged"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the session said"), std::string::npos) << r.out;
}

TEST(WindowSoak, EveryLabAndPresetThriceWithoutAValidationMessage) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto r = run_process("xvfb-run -a -s '-screen 0 1400x900x24' " + vklab_exe() + " --validate --soak 90");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("GREW"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the heap and the frame time are not judged under --validate"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the session said"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
}

// A lost device in the window (simulated: the 20th frame's wait reports VK_ERROR_DEVICE_LOST):
// the parameters are saved, the device is made anew, the lab rebuilt from them and paused, the
// panel says why, and the window goes on drawing without a validation message.
TEST(Window, ALostDeviceIsMadeAnewAndTheWindowStays) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = fs::temp_directory_path() / ("vklab-lost-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto png = dir / "after.png";
  auto r = run_process("cd " + dir.string() +
                       " && VKLAB_SIMULATE_DEVICE_LOST=20 xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --lab diffusion --validate --frames 40 --size 900x600 --set steps_per_frame=3 --capture " +
                       png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("the GPU device was lost"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the device was made anew"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Validation"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  // All 40 frames ran; the lab restarted paused at step 0 with its knobs.
  EXPECT_NE(r.out.find("window: 40 frames, lab diffusion, 0 steps, paused"), std::string::npos) << r.out;
  std::ifstream in(dir / "vklab-rescued-diffusion.json");
  ASSERT_TRUE(in) << "the parameters should be saved";
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["lab"], "diffusion");
  EXPECT_EQ(j["params"]["steps_per_frame"].dump(), "3") << j.dump();
  EXPECT_GE(j["steps_done"].get<uint64_t>(), 3u);
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty()) << "the window should still capture after the device is made anew";
  std::set<uint32_t> colours;
  pic.each(pic.w / 2, 0, pic.w, pic.h, [&](const unsigned char* p) { colours.insert(rgb(p)); });
  EXPECT_GT(colours.size(), 50u) << "the rebuilt lab's picture should be drawn";
  fs::remove_all(dir);
}

namespace {
// The share of pixels of two same-sized pictures that differ by more than `tolerance` in a channel.
double differing(const Picture& a, const Picture& b, int tolerance) {
  size_t n = 0;
  for (size_t i = 0; i < a.rgba.size(); i += 4)
    for (int c = 0; c < 3; ++c)
      if (std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])) > tolerance) {
        ++n;
        break;
      }
  return double(n) / double(a.rgba.size() / 4);
}
}  // namespace

// What a class sees is what a slide gets: in presentation mode a capture is the picture alone,
// the same pixels as a headless capture of the same run; with the sidebar shown it is the
// picture's part, again as headless draws it at that size; "with the interface" takes it all.
TEST(Window, CapturesAreThePictureAloneAsAHeadlessRunDrawsIt) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("present");
  auto xvfb = "cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
              " --validate --lab wave --frames 12 --size 800x500 ";
  auto r = run_process(xvfb + "--present --capture present.png");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("sidebar 0 px, picture 800 px"), std::string::npos) << r.out;
  r = run_process(xvfb + "--capture sidebar.png");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_process(xvfb + "--with-interface --capture whole.png");
  ASSERT_EQ(r.code, 0) << r.err;
  auto present = load_picture(dir / "present.png"), sidebar = load_picture(dir / "sidebar.png"),
       whole = load_picture(dir / "whole.png");
  ASSERT_FALSE(present.empty() || sidebar.empty() || whole.empty());
  EXPECT_EQ(present.w, 800);
  EXPECT_EQ(present.h, 500);
  EXPECT_EQ(sidebar.w, 800 - 400);  // the sidebar: 420 px at UI scale 1, at most half the window
  EXPECT_EQ(sidebar.h, 500);
  EXPECT_EQ(whole.w, 800);
  for (auto [pic, size] : {std::pair{&present, std::string("800x500")}, std::pair{&sidebar, std::string("400x500")}}) {
    auto png = dir / ("headless-" + size + ".png");
    auto h = run_process(vklab_args("--headless --lab wave --steps 12 --size " + size + " --capture " + png.string()));
    ASSERT_EQ(h.code, 0) << h.err;
    auto headless = load_picture(png);
    ASSERT_EQ(headless.w, pic->w);
    ASSERT_EQ(headless.h, pic->h);
    EXPECT_LT(differing(*pic, headless, 6), 0.001) << size << ": the window's capture is not the headless picture";
  }
  // the whole window: the sidebar's text on its left, where the picture alone has water or background
  std::set<uint32_t> left;
  whole.each(0, 0, 380, whole.h, [&](const unsigned char* p) { left.insert(rgb(p)); });
  EXPECT_GT(left.size(), 20u) << "the sidebar should be in a capture with the interface";
}

// P enters presentation mode (no sidebar), Esc leaves it, Tab leaves it with the sidebar shown.
TEST(Window, PresentationModeComesAndGoesByKey) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto xvfb = "xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() + " --frames 12 --size 800x500 --keys ";
  auto r = run_process(xvfb + "3:p");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sidebar 0 px, picture 800 px"), std::string::npos) << r.out;
  r = run_process(xvfb + "3:p,6:escape");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sidebar 400 px"), std::string::npos) << r.out;  // at most half the window
  r = run_process(xvfb + "3:p,6:tab");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sidebar 400 px"), std::string::npos) << r.out;
  r = run_process(xvfb + "3:p,6:p,8:f11");  // F11: full screen, in presentation mode
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sidebar 0 px"), std::string::npos) << r.out;
}

// The exercise's editor: in its pane beside the picture, focused when the exercise opens; 50
// Down presses all in one frame (the worst a slow frame rate can do) all arrive, and the view
// follows the caret down a kernel taller than the pane (about 30 lines show at 1000x600).
TEST(Window, TheEditorPaneKeepsEveryKeyAndTheCaretInView) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("editor");
  std::string kernel;
  {
    std::ifstream in(kSourceRoot / "assets/linalg/exercises/axpby/start.comp");
    kernel.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (int k = 0; k < 100; ++k) kernel += "// padding line " + std::to_string(k) + "\n";
  std::ofstream(dir / "axpby.comp") << kernel;
  std::string keys;
  for (int k = 0; k < 50; ++k) keys += (keys.empty() ? "" : ",") + std::string("10:down");
  auto r = run_process("cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --exercise linalg/axpby --exercise-file axpby.comp --frames 120 --size 1000x600"
                       " --keys " +
                       keys + " --with-interface --capture pane.png");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto at = r.out.find("editor: caret at line ");
  ASSERT_NE(at, std::string::npos) << r.out;
  int line = 0, column = 0, lines = 0, first = 0, last = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + at, "editor: caret at line %d, column %d of %d lines; lines %d to %d in view",
                        &line, &column, &lines, &first, &last),
            5)
      << r.out;
  EXPECT_EQ(line, 51) << "every Down press arrives";
  EXPECT_GT(lines, 100);
  EXPECT_GT(first, 1) << "the view scrolled";
  EXPECT_GE(line, first);
  EXPECT_LE(line, last) << "the caret is in view";
  // the pane takes 45 % of the window beside the 420-px sidebar, but leaves the picture 160 px
  EXPECT_NE(r.out.find("sidebar 420 px, picture 160 px"), std::string::npos) << r.out;
}
