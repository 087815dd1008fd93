// Presets (issue 15): the shipped ones listed and each run headless with validation on; a
// --dump's params.json replays the same run; bad presets refused with one line naming the
// problem, the lab's parameters untouched.
#include "app/core/presets.h"
#include "app/core/lab.h"
#include "compute/io/npy.h"
#include "compute/io/png_text.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

TEST(Presets, ListedOneALineAtLeastThreeALab) {
  auto r = run_process(vklab_args("--list-presets"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, int> per_lab;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    auto slash = line.find('/'), space = line.find(' ');
    ASSERT_NE(slash, std::string::npos) << line;
    ASSERT_LT(slash, space) << line;
    EXPECT_GT(line.size(), space + 10) << "no description: " << line;
    per_lab[line.substr(0, slash)]++;
  }
  for (auto& lab : lab_names()) EXPECT_GE(per_lab[lab], 3) << lab;
  EXPECT_EQ(per_lab.size(), lab_names().size());
}

// Two tests a lab, each its shipped presets in turn, five steps each: every other one, so that
// none runs past 30 s on a loaded machine (the float lab's four took 32 s in one test).
class PresetsOfLab : public testing::TestWithParam<std::tuple<std::string, int>> {};
TEST_P(PresetsOfLab, EveryShippedPresetRunsFiveStepsWithValidation) {
  ASSERT_GE(shipped_presets().size(), 21u);
  const auto& [lab, half] = GetParam();
  size_t ran = 0, of_lab = 0;
  for (auto& p : shipped_presets()) {
    if (p.lab != lab || int(of_lab++ % 2) != half) continue;
    ++ran;
    auto r = run_process("timeout 300 " + vklab_args("--headless --validate --preset " + p.name + " --steps 5"));
    EXPECT_EQ(r.code, 0) << p.name << ": " << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << p.name << ": " << r.err;
    EXPECT_NE(r.out.find(p.lab + " on "), std::string::npos) << p.name << " ran another lab: " << r.out;
  }
  EXPECT_GE(of_lab, 3u) << "at least three presets a lab";
  EXPECT_GE(ran, 1u);
}
INSTANTIATE_TEST_SUITE_P(Labs, PresetsOfLab, testing::Combine(testing::ValuesIn(lab_names()), testing::Values(0, 1)),
                         [](const testing::TestParamInfo<std::tuple<std::string, int>>& i) {
                           return std::get<0>(i.param) + "_" + std::to_string(std::get<1>(i.param));
                         });

// dump -> --preset params.json -> the same parameters and the same first steps, bit for bit.
TEST(Presets, ADumpReplaysTheSameRun) {
  auto dir = scratch("preset-replay");
  std::string sets = "--set size=48 --set initial=random --set seed=9 --set cd=0.65 --set boundary=zero";
  auto a = run_process(vklab_args("--headless --lab diffusion " + sets + " --steps 40 --dump " + (dir / "a").string()));
  ASSERT_EQ(a.code, 0) << a.err;
  auto b = run_process(vklab_args("--headless --preset " + (dir / "a" / "params.json").string() +
                                  " --steps 40 --dump " + (dir / "b").string()));
  ASSERT_EQ(b.code, 0) << b.err;
  auto ja = nlohmann::json::parse(std::ifstream(dir / "a" / "params.json"));
  auto jb = nlohmann::json::parse(std::ifstream(dir / "b" / "params.json"));
  EXPECT_EQ(jb["lab"], "diffusion");
  EXPECT_EQ(ja["params"], jb["params"]);
  EXPECT_EQ(jb["params"]["cd"], 0.65);
  std::vector<size_t> sa, sb;
  auto fa = read_npy(dir / "a" / "temperature.npy", &sa), fb = read_npy(dir / "b" / "temperature.npy", &sb);
  ASSERT_EQ(sa, sb);
  ASSERT_EQ(fa.size(), 48u * 48u);
  EXPECT_EQ(fa, fb);
  // --set after a preset changes it; --lab must agree with the preset's lab
  auto c = run_process(vklab_args("--headless --preset " + (dir / "a" / "params.json").string() +
                                  " --set cd=0.5 --steps 1 --dump " + (dir / "c").string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(dir / "c" / "params.json"))["params"]["cd"], 0.5);
  auto d = run_process(vklab_args("--headless --lab wave --preset " + (dir / "a" / "params.json").string()));
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.err.find("is for lab 'diffusion', not 'wave'"), std::string::npos) << d.err;
}

TEST(Presets, BadPresetsAreRefusedWithOneLine) {
  auto dir = scratch("preset-bad");
  auto refused = [&](const std::string& text, const std::string& says) {
    auto path = dir / "p.json";
    std::ofstream(path) << text;
    auto r = run_process(vklab_args("--headless --steps 1 --preset " + path.string()));
    EXPECT_EQ(r.code, 2) << text << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << text << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  refused(R"({"lab": "wave", "params": {"speed": 3}})", "unknown parameter 'speed'");
  refused(R"({"lab": "wave", "params": {"scheme": "leapfrog"}})", "bad value 'leapfrog' for scheme");
  refused(R"({"lab": "wave", "params": {"c": 1e9}})", "for c");
  refused(R"({"lab": "wave", "params": {"c": [1, 2]}})", "parameter 'c' is not a number");
  refused(R"({"lab": "kitchen"})", "unknown lab 'kitchen'");
  refused(R"({"params": {}})", "no \"lab\"");
  refused("{not json", "not JSON");
  auto r = run_process(vklab_args("--headless --preset nosuchpreset"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no preset file or shipped preset 'nosuchpreset'"), std::string::npos) << r.err;
}

// In the app: a refused preset leaves the running lab's parameters as they were.
TEST(Presets, ARefusedPresetChangesNothing) {
  auto lab = make_lab("cloth");
  lab->params().set("iterations", "17");
  auto before = lab->params().to_json();
  Preset p{"cloth", "test", "", {{"iterations", 3}, {"pose", "sideways"}}};
  EXPECT_THROW(apply_preset(p, lab->params()), ParamError);
  EXPECT_EQ(lab->params().to_json(), before);
  p.params = {{"iterations", 3}, {"pose", "hang"}};
  apply_preset(p, lab->params());
  EXPECT_EQ(lab->params().get_int("iterations"), 3);
  EXPECT_EQ(lab->params().choice("pose"), "hang");
  // a shipped preset by its short name
  EXPECT_EQ(find_preset("hang-in-wind").lab, "cloth");
}

// A preset is the lab's defaults and its values, in the window as on the command line: the
// help's sequence wave/seed-damping then wave/sponge runs the sponge on the default scheme,
// not on the damping scheme the first preset left (the window once kept it).
TEST(Presets, APresetStartsFromTheLabsDefaults) {
  auto defaults = make_lab("wave")->params();
  auto damping = preset_params(find_preset("wave/seed-damping"));
  EXPECT_EQ(damping.choice("scheme"), "seed");
  for (const char* next : {"wave/sponge", "wave/rain-courant-5"}) {
    SCOPED_TRACE(next);
    auto p = find_preset(next);
    auto set = preset_params(p);
    EXPECT_EQ(set.choice("scheme"), defaults.choice("scheme"));
    for (auto& param : set.all())  // every value the preset does not name is the default
      if (!p.params.contains(param.name)) {
        EXPECT_EQ(set.to_json()[param.name], defaults.to_json()[param.name]) << param.name;
      }
  }
  EXPECT_THROW(preset_params({"wave", "bad", "", {{"scheme", "leapfrog"}}}), ParamError);
}

// A capture carries its run (an iTXt chunk "vklab"): --preset shot.png replays the same
// heights; a PNG without it, or a truncated one, is refused with one line.
TEST(Presets, ACaptureReplaysItsRun) {
  auto dir = scratch("preset-png");
  auto shot = (dir / "shot.png").string();
  auto a =
      run_process(vklab_args("--headless --lab wave --set size=64 --set scheme=seed --set preset=drop --steps 12 "
                             "--size 160x100 --capture " +
                             shot + " --dump " + (dir / "a").string()));
  ASSERT_EQ(a.code, 0) << a.err;
  std::stringstream bytes;
  bytes << std::ifstream(shot, std::ios::binary).rdbuf();
  auto manifest = nlohmann::json::parse(io::read_png_text(bytes.str(), "vklab", shot));
  EXPECT_EQ(manifest["lab"], "wave");
  EXPECT_EQ(manifest["step"], 12);
  EXPECT_EQ(manifest["params"]["scheme"], "seed");
  EXPECT_FALSE(manifest["device"]["name"].get<std::string>().empty());
  EXPECT_EQ(manifest["version"].get<std::string>().rfind("vklab ", 0), 0u);
  auto b = run_process(vklab_args("--headless --preset " + shot + " --steps 12 --dump " + (dir / "b").string()));
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(read_npy(dir / "a" / "height.npy"), read_npy(dir / "b" / "height.npy"));
  // the chunk is well formed: its CRC is PNG's (the IEND chunk's CRC is the known AE426082)
  EXPECT_EQ(io::png_crc32("IEND"), 0xAE426082u);
  std::string png = bytes.str();
  uint32_t length = uint32_t(uint8_t(png[33])) << 24 | uint32_t(uint8_t(png[34])) << 16 |
                    uint32_t(uint8_t(png[35])) << 8 | uint32_t(uint8_t(png[36]));
  ASSERT_EQ(png.substr(37, 4), "iTXt");
  EXPECT_EQ(io::png_crc32(png.substr(37, 4 + length)),
            uint32_t(uint8_t(png[41 + length])) << 24 | uint32_t(uint8_t(png[42 + length])) << 16 |
                uint32_t(uint8_t(png[43 + length])) << 8 | uint32_t(uint8_t(png[44 + length])));
  // a PNG that is not a capture; a truncated capture
  auto refused = [&](const std::string& file_bytes, const std::string& says) {
    auto path = dir / "bad.png";
    std::ofstream(path, std::ios::binary) << file_bytes;
    auto r = run_process(vklab_args("--headless --steps 1 --preset " + path.string()));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  };
  refused(png.substr(0, 33) + png.substr(33 + 12 + length), "a PNG without vklab's manifest");
  refused(png.substr(0, 60), "runs past the end");
}
