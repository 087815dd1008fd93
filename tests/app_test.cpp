// app/: parameters, .npy files, assets, the file chooser and the vklab command line's common
// rules (usage, help, no display); each lab's command line is tested in cli_<lab>_test.cpp.
#include "app/core/assets.h"
#include "app/core/cli.h"
#include "app/core/help.h"
#include "app/core/lab.h"
#include "app/core/settings.h"
#include "app/widgets/file_browser.h"
#include "app/widgets/plot.h"
#include "compute/diffusion/diffusion.h"
#include "compute/io/npy.h"
#include "compute/io/pgm.h"
#include "compute/io/user_dirs.h"
#include "compute/machining/zbuffer.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/io/meshb.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/links.h"
#include "compute/wave/wave.h"
#include "tests/helpers.h"

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cfloat>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

TEST(Params, ParseCheckAndDescribe) {
  auto lab = make_lab("diffusion");
  auto& p = lab->params();
  p.set("cd", "0.25");
  EXPECT_DOUBLE_EQ(p.get("cd"), 0.25);
  p.set_assignment("boundary=zero");
  EXPECT_EQ(p.choice("boundary"), "zero");
  EXPECT_FALSE(p.rebuild_pending);
  p.set("size", "64");
  EXPECT_TRUE(p.rebuild_pending);
  EXPECT_THROW(p.set("cd", "abc"), ParamError);
  EXPECT_THROW(p.set("cd", "7"), ParamError);
  EXPECT_THROW(p.set("size", "12.5"), ParamError);
  EXPECT_THROW(p.set("boundary", "wavy"), ParamError);
  EXPECT_THROW(p.set("nope", "1"), ParamError);
  EXPECT_THROW(p.set_assignment("cd"), ParamError);
  EXPECT_THROW(make_lab("nolab"), ParamError);
  auto j = p.to_json();
  EXPECT_EQ(j["size"], 64);
  EXPECT_EQ(j["boundary"], "zero");
  EXPECT_NE(p.describe().find("cd = 0.25"), std::string::npos);
}

TEST(Npy, RoundTripKeepsShapeAndValues) {
  auto dir = scratch("npy");
  auto data = random_floats(6 * 7, -1e6f, 1e6f, 31);
  write_npy(dir / "a.npy", data, {6, 7});
  std::vector<size_t> shape;
  auto back = read_npy(dir / "a.npy", &shape);
  EXPECT_EQ(shape, (std::vector<size_t>{6, 7}));
  EXPECT_EQ(back, data);
  EXPECT_EQ(fs::file_size(dir / "a.npy") % 16, (6 * 7 * 4) % 16);  // header padded to 64 bytes
  EXPECT_THROW(write_npy(dir / "b.npy", data, {5, 7}), std::invalid_argument);
}

TEST(Cli, BadUsageExitsWithCode2AndOneLine) {
  for (std::string args : {"--lab nolab --headless", "--frobnicate", "--headless --steps many", "--headless --steps -3",
                           "--headless --set cd=9", "--headless --set nope=1", "--headless --set cd", "--size 10",
                           "--dump /tmp/x", "bench --headless", "--headless --device no-such-gpu"}) {
    auto r = run_process(vklab_args(args));
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("vklab: ", 0), 0u) << args << "\n" << r.err;
  }
}

TEST(Cli, HelpListsLabsAndParameters) {
  auto r = run_process(vklab_args("--help --lab diffusion"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--headless"), std::string::npos);
  EXPECT_NE(r.out.find("brush_radius"), std::string::npos);
  auto d = run_process(vklab_args("--list-devices"));
  EXPECT_EQ(d.code, 0);
  EXPECT_NE(d.out.find(test_context().info.name), std::string::npos);
}

TEST(Cli, WithoutDisplayTheWindowSaysSoInOneLine) {
  auto r = run_process("env -u DISPLAY -u WAYLAND_DISPLAY " + vklab_args(""));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--headless"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Assets, GraymapsReadAndMalformedOnesAreNamed) {
  auto img = read_pgm(find_asset("diffusion/letters.pgm"));
  EXPECT_EQ(img.width, 66u);
  EXPECT_EQ(img.height, 22u);
  size_t hot = std::count(img.values.begin(), img.values.end(), 1.0f);
  EXPECT_GT(hot, 100u);
  EXPECT_EQ(hot + std::count(img.values.begin(), img.values.end(), 0.0f), img.values.size());

  auto dir = scratch("pgm");
  std::ofstream(dir / "p5.pgm", std::ios::binary) << "P5\n# c\n2 2\n65535\n"
                                                  << std::string("\x00\x00\xff\xff\x80\x00\x00\x01", 8);
  auto p5 = read_pgm(dir / "p5.pgm");
  EXPECT_EQ(p5.values, (std::vector<float>{0.0f, 1.0f, float(0x8000) / 65535.0f, 1.0f / 65535.0f}));

  std::map<std::string, std::string> bad = {{"magic.pgm", "P6\n1 1\n255\n0\n"},
                                            {"short.pgm", "P2\n2 2\n255\n1 2 3\n"},
                                            {"range.pgm", "P2\n1 1\n15\n16\n"},
                                            {"size.pgm", "P2\n0 1\n255\n"},
                                            {"data.pgm", "P5\n4 4\n255\nab"}};
  for (auto& [name, text] : bad) {
    std::ofstream(dir / name, std::ios::binary) << text;
    try {
      read_pgm(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(find_asset("no/such/asset.pgm"), std::runtime_error);
}

namespace {

// The path parameters' chooser lists a folder's subfolders (with ".." to go up) and the
// files of the wanted types, whatever the case of their extension; a folder it cannot read
// gives a message naming it.
TEST(FileBrowser, ListsFoldersAndTheWantedFiles) {
  auto dir = scratch("browse");
  fs::create_directories(dir / "sub");
  for (const char* f : {"b.meshb", "a.mesh", "C.MESH", "notes.txt", "mesh"}) std::ofstream(dir / f) << "x";
  auto l = list_folder(dir, {".mesh", ".meshb"});
  EXPECT_TRUE(l.error.empty()) << l.error;
  EXPECT_EQ(l.folders, (std::vector<std::string>{"..", "sub"}));
  EXPECT_EQ(l.files, (std::vector<std::string>{"C.MESH", "a.mesh", "b.meshb"}));
  EXPECT_EQ(list_folder(dir, {"*"}).files.size(), 5u);
  auto missing = list_folder(dir / "nowhere", {});
  EXPECT_NE(missing.error.find("nowhere"), std::string::npos) << missing.error;
  fs::remove_all(dir);
}

}  // namespace

namespace {

// The sample meshes gmsh made for the mesh lab (scripts/make-mesh-assets.sh): a closed
// genus-0 sphere, and a volume with a hole through it whose boundary has genus 1.
TEST(Assets, SampleMeshesAreWhatTheySay) {
  auto sphere = mesh::read_mesh(find_asset("mesh/sphere.mesh"));
  const auto& t = *sphere.find(mesh::Kind::Triangles);
  long V = long(sphere.vertices()), F = long(t.count()), E = long(mesh::extract_edges(t).count());
  EXPECT_EQ(V - E + F, 2) << "a sphere";
  auto bracket = mesh::read_mesh(find_asset("mesh/bracket.mesh"));
  mesh::FaceSet faces = mesh::extract_faces(bracket);
  mesh::Elements outside = faces.boundary(mesh::Kind::Triangles);
  std::set<uint32_t> on(outside.v.begin(), outside.v.end());
  long Vb = long(on.size()), Fb = long(outside.count()), Eb = long(mesh::extract_edges(outside).count());
  EXPECT_EQ(Vb - Eb + Fb, 0) << "the boundary of a box with a hole through it: a torus";
  double volume = 0;
  const auto& tets = *bracket.find(mesh::Kind::Tetrahedra);
  auto P = [&](uint32_t v) {
    return std::array<double, 3>{bracket.xyz[3 * v], bracket.xyz[3 * v + 1], bracket.xyz[3 * v + 2]};
  };
  for (size_t i = 0; i < tets.count(); ++i) {
    auto a = P(tets.v[4 * i]), b = P(tets.v[4 * i + 1]), c = P(tets.v[4 * i + 2]), d = P(tets.v[4 * i + 3]);
    double u[3], w[3], z[3];
    for (int k = 0; k < 3; ++k) u[k] = b[k] - a[k], w[k] = c[k] - a[k], z[k] = d[k] - a[k];
    volume += std::abs(u[0] * (w[1] * z[2] - w[2] * z[1]) - u[1] * (w[0] * z[2] - w[2] * z[0]) +
                       u[2] * (w[0] * z[1] - w[1] * z[0])) /
              6;
  }
  double exact = 2 * 1 * 0.6 - M_PI * 0.25 * 0.25 * 0.6;  // the box less the cylinder
  EXPECT_NEAR(volume, exact, 0.01 * exact) << "faceted hole, slightly smaller than the round one";
  EXPECT_GT(volume, exact);
}

}  // namespace

// The panel's words: every parameter of every lab has a label and sits in a group; the
// --help text of a lab lists its groups; the registry's shorthands reach --set.
TEST(Params, EveryParameterIsLabelledAndGrouped) {
  for (auto& name : lab_names()) {
    auto lab = make_lab(name);
    for (auto& p : lab->params().all()) {
      EXPECT_FALSE(p.label.empty()) << name << "." << p.name;
      EXPECT_FALSE(p.group.empty()) << name << "." << p.name;
      EXPECT_NE(p.group, "Parameters") << name << "." << p.name << " has no topic";
      EXPECT_EQ(param_label(p).find(p.label), 0u);
      if (!p.unit.empty()) {
        EXPECT_NE(param_label(p).find("(" + p.unit + ")"), std::string::npos);
      }
    }
    auto text = lab->params().describe();
    EXPECT_NE(text.find("  " + lab->params().all().front().group + ":\n"), std::string::npos) << text;
    for (auto& p : lab->params().all()) {  // each group once, every parameter once (cloth named three twice)
      std::string heading = "  " + p.group + ":\n";
      EXPECT_EQ(text.find(heading), text.rfind(heading)) << name << ": " << p.group << " twice";
      std::string line = "    " + p.name + " = ";
      EXPECT_EQ(text.find(line), text.rfind(line)) << name << "." << p.name;
    }
  }
}

// A choice with spaces is typed with '-' for them on the command line (picture=table-3.1).
TEST(Params, ChoicesWithSpacesTakeHyphens) {
  auto lab = make_lab("floatlab");
  lab->params().set("picture", "table-3.1");
  EXPECT_EQ(lab->params().choice("picture"), "table 3.1");
  lab->params().set("picture", "error map");
  EXPECT_EQ(lab->params().choice("picture"), "error map");
  EXPECT_THROW(lab->params().set("picture", "table-3-1"), ParamError);
}

TEST(Registry, ShorthandsComeFromTheLabsAndReachSet) {
  std::vector<std::string> args = {"vklab", "--lab", "machining", "--tool-shape", "torus", "--mesh", "m.mesh"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  auto o = parse_cli(int(argv.size()), argv.data());
  EXPECT_EQ(o.sets, (std::vector<std::string>{"tool_shape=torus", "mesh_file=m.mesh"}));
  size_t shorthands = 0;
  for (size_t i = 0; i < lab_entries().size(); ++i) {
    auto lab = lab_entries()[i].make();
    EXPECT_EQ(lab->name(), lab_names()[i]);
    for (auto& sh : lab_entries()[i].shorthands) {
      EXPECT_NO_THROW(lab->params().get(sh.param)) << sh.flag;  // names a real parameter
      EXPECT_NE(usage().find("  " + sh.flag + " VALUE"), std::string::npos) << sh.flag;
      ++shorthands;
    }
  }
  EXPECT_EQ(shorthands, 7u);
}

TEST(Settings, RoundTripAndMalformedFilesGiveTheDefaults) {
  auto dir = scratch("settings");
  auto old = std::getenv("VKLAB_CONFIG_DIR") ? std::string(std::getenv("VKLAB_CONFIG_DIR")) : std::string();
  setenv("VKLAB_CONFIG_DIR", dir.c_str(), 1);
  EXPECT_EQ(settings_path(), dir / "settings.json");
  EXPECT_EQ(load_settings().ui_scale, 0.0f);  // no file yet
  Settings s;
  s.ui_scale = 1.75f, s.panel_width = 380, s.bench_quick = false;
  EXPECT_EQ(save_settings(s), "");
  auto back = load_settings();
  EXPECT_EQ(back.ui_scale, 1.75f);
  EXPECT_EQ(back.panel_width, 380.0f);
  EXPECT_FALSE(back.bench_quick);
  std::ofstream(dir / "settings.json") << R"({"ui_scale": 40})";
  EXPECT_EQ(load_settings().ui_scale, 3.0f);  // clamped
  std::ofstream(dir / "settings.json") << "[1, 2";
  EXPECT_EQ(load_settings().ui_scale, 0.0f);
  setenv("VKLAB_CONFIG_DIR", old.c_str(), 1);
}

// The user's folders (compute/io/user_dirs.h): the override, else the XDG variable, else under
// HOME, else none; each variable unset or empty counts as absent. Captures and recordings go to
// the working folder on Linux.
TEST(Settings, UserFoldersFollowTheOverrideThenXdgThenHome) {
  const char* names[] = {"VKLAB_CACHE_DIR", "XDG_CACHE_HOME", "VKLAB_CONFIG_DIR", "XDG_CONFIG_HOME", "HOME"};
  std::string saved[5];
  bool had[5];
  for (int i = 0; i < 5; ++i) {
    const char* v = std::getenv(names[i]);
    had[i] = v != nullptr, saved[i] = v ? v : "";
  }
  using io::UserDir;
  setenv("HOME", "/home/u", 1), setenv("XDG_CACHE_HOME", "/x", 1), setenv("VKLAB_CACHE_DIR", "/o", 1);
  setenv("XDG_CONFIG_HOME", "/c", 1), setenv("VKLAB_CONFIG_DIR", "", 1);
  EXPECT_EQ(io::user_dir(UserDir::Cache), std::filesystem::path("/o"));
  EXPECT_EQ(io::user_dir(UserDir::Settings), std::filesystem::path("/c/vklab"));
  setenv("VKLAB_CACHE_DIR", "", 1);
  EXPECT_EQ(io::user_dir(UserDir::Cache), std::filesystem::path("/x/vklab"));
  unsetenv("XDG_CACHE_HOME"), unsetenv("XDG_CONFIG_HOME");
  EXPECT_EQ(io::user_dir(UserDir::Cache), std::filesystem::path("/home/u/.cache/vklab"));
  EXPECT_EQ(io::user_dir(UserDir::Settings), std::filesystem::path("/home/u/.config/vklab"));
  setenv("VKLAB_CONFIG_DIR", "/s", 1);
  EXPECT_EQ(io::user_dir(UserDir::Settings), std::filesystem::path("/s"));
  unsetenv("HOME");
  EXPECT_TRUE(io::user_dir(UserDir::Cache).empty());
  EXPECT_EQ(io::user_dir(UserDir::Captures), std::filesystem::path("captures"));
  EXPECT_EQ(io::user_dir(UserDir::Recordings), std::filesystem::path("recordings"));
  for (int i = 0; i < 5; ++i) had[i] ? setenv(names[i], saved[i].c_str(), 1) : unsetenv(names[i]);
}

// Every lab has a help page (assets/<lab>/help.md) with the five sections, names its source
// by author and year (never by a file number), and every preset it offers to load is shipped.
TEST(Help, EveryLabHasAPageWithItsSectionsAndRealPresets) {
  const char* sections[] = {"Source", "The method then", "What we do differently today", "Try", "Look for"};
  for (auto& lab : lab_names()) {
    auto text = lab_help_text(lab);
    ASSERT_FALSE(text.empty()) << lab;
    auto page = parse_help(text);
    ASSERT_FALSE(page.empty());
    EXPECT_EQ(page[0].kind, HelpBlock::Kind::Title) << lab;
    std::vector<std::string> found;
    size_t presets = 0, bullets = 0;
    for (auto& b : page) {
      if (b.kind == HelpBlock::Kind::Section) found.push_back(b.text);
      bullets += b.kind == HelpBlock::Kind::Bullet;
      presets += b.presets.size();
    }
    EXPECT_EQ(found, std::vector<std::string>(std::begin(sections), std::end(sections))) << lab;
    EXPECT_GE(bullets, 6u) << lab;
    EXPECT_GE(presets, 1u) << lab << " should offer a shipped preset";
    EXPECT_EQ(text.find("seed 0"), std::string::npos) << lab;
    EXPECT_EQ(text.find("000_"), std::string::npos) << lab;
    bool year = false;
    for (const char* y : {"2005", "2006", "2012", "2020"}) year |= text.find(y) != std::string::npos;
    EXPECT_TRUE(year) << lab;
  }
  // The parser: continued lines join their bullet; a backticked shipped preset is found.
  auto page = parse_help("# T\nintro\n## Try\n- drop one\n  with `wave/drop` and `nolab/none`\n\npara\n");
  ASSERT_EQ(page.size(), 5u);
  EXPECT_EQ(page[3].text, "drop one with `wave/drop` and `nolab/none`");
  EXPECT_EQ(page[3].presets, std::vector<std::string>{"wave/drop"});
  EXPECT_EQ(page[4].kind, HelpBlock::Kind::Paragraph);
  // A table: one block, its header and rows as cells, the |---| line dropped; `wave/drop` in a cell loads.
  page = parse_help("## S\n| a | b c |\n|---|:-:|\n| `wave/drop` | 2 |\n| x |  |\nafter\n");
  ASSERT_EQ(page.size(), 3u);
  ASSERT_EQ(page[1].kind, HelpBlock::Kind::Table);
  EXPECT_EQ(page[1].rows, (std::vector<std::vector<std::string>>{{"a", "b c"}, {"`wave/drop`", "2"}, {"x", ""}}));
  EXPECT_EQ(page[1].presets, std::vector<std::string>{"wave/drop"});
  EXPECT_EQ(page[2].kind, HelpBlock::Kind::Paragraph);
  // The panel's labels are **bold** on GitHub; the window shows the words without the stars.
  page = parse_help("Raise **Wave speed** (`c`).\n| **Time scheme** | x |\n");
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0].text, "Raise Wave speed (`c`).");
  EXPECT_EQ(page[1].rows[0][0], "Time scheme");
  // The mesh page's table of the manual's examples: each row names a section of the manual and an example here.
  auto mesh = parse_help(lab_help_text("mesh"));
  auto table = std::find_if(mesh.begin(), mesh.end(), [](auto& b) { return b.kind == HelpBlock::Kind::Table; });
  ASSERT_NE(table, mesh.end());
  ASSERT_GE(table->rows.size(), 7u);
  for (size_t r = 1; r < table->rows.size(); ++r) {
    ASSERT_EQ(table->rows[r].size(), table->rows[0].size());
    EXPECT_EQ(table->rows[r][0].rfind("§", 0), 0u) << table->rows[r][0];
    auto examples = mesh::example_names();
    EXPECT_NE(std::find(examples.begin(), examples.end(), table->rows[r][3]), examples.end()) << table->rows[r][3];
  }
}

// The plots' axes: round ticks (1, 2 or 5 times a power of ten) inside the range; the CSV
// has a header with the axes' labels and a line a point.
TEST(Plot, NiceTicksAndCsv) {
  EXPECT_EQ(nice_ticks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_EQ(nice_ticks(3, 97, 4), (std::vector<double>{20, 40, 60, 80}));
  auto t = nice_ticks(-7.3, -2.1, 5);
  ASSERT_FALSE(t.empty());
  for (double v : t) {
    EXPECT_GE(v, -7.3);
    EXPECT_LE(v, -2.1);
  }
  EXPECT_EQ(t.front(), -7.0);
  EXPECT_EQ(nice_ticks(5, 5).size(), 1u);  // an empty range: one tick, no loop
  PlotSpec spec{"e", "step", "energy (J)"};
  EXPECT_EQ(plot_csv(spec, {10, 11}, {0.5, 0.25}), "step,energy (J)\n10,0.5\n11,0.25\n");
  EXPECT_EQ(plot_csv({"r", "", "r"}, {}, {3}), "index,r\n0,3\n");
}

// A conserved energy (31.9 give or take float rounding): the plot's range is widened so the
// line is flat, and its tick labels differ from each other (not "31.9" four times).
TEST(Plot, FlatLinesLookFlatAndTicksReadApart) {
  double lo = 31.900001, hi = 31.900004;
  plot_range(lo, hi);
  EXPECT_GE(hi - lo, 1e-4 * 31.9);
  EXPECT_LT(lo, 31.900001);
  EXPECT_GT(hi, 31.900004);
  auto ticks = nice_ticks(lo, hi, 4);
  ASSERT_GE(ticks.size(), 3u);
  auto labels = tick_labels(ticks);
  ASSERT_EQ(labels.size(), ticks.size());
  for (size_t i = 1; i < labels.size(); ++i) EXPECT_NE(labels[i], labels[i - 1]) << labels[i];
  for (size_t i = 0; i < labels.size(); ++i) EXPECT_NEAR(std::stod(labels[i]), ticks[i], 1e-9) << labels[i];
  EXPECT_EQ(tick_labels({0, 0.2, 0.4}), (std::vector<std::string>{"0", "0.2", "0.4"}));
  EXPECT_EQ(tick_labels({1000, 2000, 250000}), (std::vector<std::string>{"1000", "2000", "250000"}));
  double a = 2, b = 8;  // a real range keeps its values, with 5 % of room each side
  plot_range(a, b);
  EXPECT_NEAR(a, 1.7, 1e-12);
  EXPECT_NEAR(b, 8.3, 1e-12);
}
