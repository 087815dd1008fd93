// Nothing half-written (compute/io/output.h, compute/io/interrupt.h): a run stopped by Ctrl-C
// finishes its recording (the MP4 plays, its index written) and exits 130; a run killed outright
// at any moment leaves the previous picture or dump whole; a full disk fails the run, saying so,
// and the previous file stays as it was. Under the ctest label `hostile`, with the hostile corpus.
#include "compute/io/npy.h"
#include "render/recorder.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;

namespace {

// Starts vklab with `args` in the background (its pid in DIR/pid), waits until `ready` exists (a
// glob, looked for every 20 ms up to 20 s: the signal follows it closely), then sends `signals`
// (e.g. "INT", "INT INT", "KILL") and waits for it.
// The exit status as the shell reports it (128 + the signal when killed by one).
ProcessResult interrupted_run(const fs::path& dir, const std::string& args, const std::string& ready,
                              const std::string& signals, const std::string& prefix = "") {
  std::ofstream(dir / "run.sh") << "cd " << dir.string() << "\n"
                                << prefix << vklab_args(args) << " &\npid=$!\n"
                                << "for i in $(seq 1000); do ls " << ready
                                << " >/dev/null 2>&1 && break; sleep 0.02; done\n"
                                << "target=$pid\n"  // under xvfb-run: vklab is its child
                                << "[ -n \"" << prefix << "\" ] && target=$(pgrep -x vklab -P $pid)\n"
                                << "for s in " << signals << "; do kill -s $s $target; sleep 0.3; done\n"
                                << "for i in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done\n"
                                << "kill -KILL $pid 2>/dev/null\nwait $pid\n";
  return run_process("bash " + (dir / "run.sh").string());
}

}  // namespace

TEST(Durability, CtrlCDuringAHeadlessRecordingLeavesAVideoThatPlays) {
  auto dir = scratch("ctrl-c-record");
  auto r = interrupted_run(dir, "--headless --lab wave --set size=64 --steps 100000000 --record run.mp4",
                           ".run.mp4.*.partial", "INT");
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGINT (Ctrl-C)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the recording is complete up to there"), std::string::npos) << r.err;
  auto v = render::probe_video(dir / "run.mp4");  // libavformat reads it through its index
  EXPECT_EQ(v.codec, "h264");
  EXPECT_GT(v.frames, 0u);
  EXPECT_EQ(v.width, 1280u);
  for (auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos) << e.path() << " left";
}

TEST(Durability, CtrlCTwiceEndsTheProcessAtOnce) {
  auto dir = scratch("ctrl-c-twice");
  auto start = std::chrono::steady_clock::now();
  // Submissions of some seconds each on lavapipe: the first Ctrl-C waits for the one under way,
  // the second, 0.3 s later, does not.
  auto r = interrupted_run(dir,
                           "--headless --lab diffusion --set size=4096 --set steps_per_frame=20 --steps 100000000 "
                           "--size 320x200 --record run.mp4",
                           ".run.mp4.*.partial", "INT INT");
  EXPECT_EQ(r.code, 130) << r.err;  // the second ends it by the signal itself
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(25));
  EXPECT_FALSE(fs::exists(dir / "run.mp4")) << "a recording never finished must not take the name";
}

TEST(Durability, CtrlCClosesTheWindowAndFinishesItsRecording) {
  if (run_process("command -v xvfb-run").code != 0) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("ctrl-c-window");
  auto r = interrupted_run(dir, "--lab wave --set size=64 --size 640x400 --record run.mp4", ".run.mp4.*.partial", "INT",
                           "xvfb-run -a -s '-screen 0 800x600x24' ");
  // vklab (xvfb-run's child) closes the window as its button does.
  EXPECT_NE(r.err.find("interrupted by SIGINT (Ctrl-C): the window closed"), std::string::npos) << r.err;
  auto v = render::probe_video(dir / "run.mp4");
  EXPECT_GT(v.frames, 0u);
}

// Killed at a moment after moment, the second capture leaves the first picture or its own, whole.
TEST(Durability, AKilledCaptureLeavesThePreviousPictureWhole) {
  auto dir = scratch("killed-capture");
  auto first = run_process(
      vklab_args("--headless --lab wave --steps 1 --size 320x200 --capture " + (dir / "shot.png").string()));
  ASSERT_EQ(first.code, 0) << first.err;
  for (const char* after : {"0.2", "0.4", "0.6", "0.8", "1.0", "1.4"}) {
    run_process("cd " + dir.string() + " && (" +
                vklab_args("--headless --lab wave --steps 3 --size 640x400 --capture shot.png") + " & pid=$!; sleep " +
                after + "; kill -KILL $pid; wait $pid)");
    Picture p = load_picture(dir / "shot.png");
    ASSERT_FALSE(p.empty()) << "killed after " << after << " s: the picture is broken";
    EXPECT_TRUE((p.w == 320 && p.h == 200) || (p.w == 640 && p.h == 400)) << p.w << "x" << p.h;
  }
}

// A dump killed half-way never pairs one run's params.json with another's arrays.
TEST(Durability, AKilledDumpLeavesTheFolderOfOneRun) {
  auto dir = scratch("killed-dump");
  auto first = run_process(vklab_args("--headless --lab wave --set size=64 --steps 1 --dump " + (dir / "d").string()));
  ASSERT_EQ(first.code, 0) << first.err;
  for (const char* after : {"0.3", "0.6", "0.9", "1.2", "1.6"}) {
    run_process("cd " + dir.string() + " && (" + vklab_args("--headless --lab wave --set size=256 --steps 1 --dump d") +
                " & pid=$!; sleep " + after + "; kill -KILL $pid; wait $pid)");
    std::ifstream in(dir / "d" / "params.json");
    auto j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "killed after " << after << " s: params.json is broken";
    uint32_t size = j["params"]["size"].get<uint32_t>();
    for (const char* array : {"height.npy", "previous.npy"}) {
      std::vector<size_t> shape;
      auto values = read_npy(dir / "d" / array, &shape);
      ASSERT_EQ(shape.size(), 2u) << array;
      EXPECT_EQ(shape[0], size) << "killed after " << after << " s: " << array << " is of another run";
      EXPECT_EQ(values.size(), size_t(size) * size);
    }
  }
}

// A full disk: a small tmpfs where the machine lets a user mount one (a user namespace), else a
// file-size limit (ulimit -f), which fails a write the same way. The run fails, saying which
// file, and the previous file stays.
TEST(Durability, AFullDiskFailsTheRunAndKeepsThePreviousFiles) {
  auto dir = scratch("full-disk");
  auto good = run_process(
      vklab_args("--headless --lab wave --steps 1 --size 320x200 --capture " + (dir / "good.png").string()));
  ASSERT_EQ(good.code, 0) << good.err;
  const std::string before = file_bytes(dir / "good.png");
  fs::create_directories(dir / "disk");
  // The disk holds good.png and its copy, and about 16 KiB more.
  const std::string runs =
      "cp good.png disk/shot.png && cp good.png disk/plot.png; "
      "echo '{}' > disk/params.json; " +
      vklab_args("--headless --lab wave --steps 1 --size 1280x800 --capture disk/shot.png") + "; echo capture=$?; " +
      vklab_args("--headless --lab wave --steps 1 --set size=512 --dump disk/d") + "; echo dump=$?; " +
      vklab_args("--headless --lab wave --steps 4 --plot wave-energy=disk/plot.png") + "; echo plot=$?";
  size_t limit_kib = (2 * before.size() + 16384) / 1024 + 8;
  std::string tmpfs = "unshare -rm bash -c 'mount -t tmpfs -o size=" + std::to_string(limit_kib) + "k tmpfs disk && " +
                      runs + "; cmp good.png disk/shot.png && echo kept; ls -a disk'";
  auto r = run_process("cd " + dir.string() + " && " + tmpfs);
  std::string how = "a tmpfs of " + std::to_string(limit_kib) + " KiB";
  if (r.out.find("capture=") == std::string::npos) {  // no user namespaces here: a file-size limit
    how = "ulimit -f 16";
    r = run_process("cd " + dir.string() + " && bash -c 'trap \"\" XFSZ; ulimit -f 16; " + runs +
                    "; cmp good.png disk/shot.png && echo kept; ls -a disk'");
  }
  SCOPED_TRACE(how);
  EXPECT_NE(r.out.find("capture=1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("dump=1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("plot=1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("kept"), std::string::npos) << "the previous picture was lost:\n" << r.out;
  EXPECT_NE(r.err.find("cannot be written"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find(".partial"), std::string::npos) << "a temporary file was left:\n" << r.out;
}
