// The GMlib manual's kernels as printed (Maréchal 2020, GMlib v3 manual, §2.1 to §2.5), shipped
// in assets/mesh/kernels/manual/ and read through the aliases of compute/mesh/gmlib_dialect.h:
// each file holds the printed lines verbatim, runs against a CPU loop of the same computation
// on a mesh with random coordinates (every output element checked), and has its misprints
// flagged at their lines; the window's and headless paths run them too.
#include "compute/mesh/generate.h"
#include "compute/mesh/gmlib_dialect.h"
#include "compute/mesh/kernel_text.h"
#include "tests/helpers.h"

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace mesh;

namespace {

std::string manual_file_text(const std::string& file) {
  std::ifstream in(std::string(VKLAB_SOURCE_ASSET_DIR) + "/mesh/kernels/manual/" + file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
std::vector<std::string> manual_lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

class MeshManual : public GpuTest {
 public:
  // The file's kernels on a 9 × 9 surface whose coordinates are random (none zero), `runs` times;
  // each field in `start` uploaded first.
  void run(const std::string& file, int runs, const std::map<std::string, std::vector<double>>& start = {}) {
    m_ = bumpy_grid(9);
    g_ = std::make_unique<GpuMesh>(ctx(), m_);
    std::mt19937 rng(35);
    std::uniform_real_distribution<float> u(0.1f, 1.0f);
    std::bernoulli_distribution sign(0.5);
    crd_.assign(4 * g_->vertices(), 0.0f);
    for (size_t v = 0; v < g_->vertices(); ++v)
      for (int c = 0; c < 3; ++c) crd_[4 * v + c] = sign(rng) ? u(rng) : -u(rng);
    g_->set_coordinates(crd_);
    kernels_ = compile_text(*g_, manual_file_text(file), Misprints::Fix, &misprints_);
    for (auto& [name, values] : start) g_->upload(name, values);
    for (int r = 0; r < runs; ++r)
      ctx().submit_now([&](VkCommandBuffer cmd) {
        for (auto& k : kernels_) g_->record(cmd, *k);
      });
  }
  glm::dvec3 P(uint32_t v) const { return {crd_[4 * v], crd_[4 * v + 1], crd_[4 * v + 2]}; }
  const std::vector<uint32_t>& tri() const { return g_->elements(Kind::Triangles).v; }
  size_t triangles() const { return tri().size() / 3; }
  glm::dvec3 barycentre(size_t t) const { return (P(tri()[3 * t]) + P(tri()[3 * t + 1]) + P(tri()[3 * t + 2])) / 3.0; }
  // Each vertex's ball: its triangles, counted from the element list here.
  std::vector<std::vector<size_t>> balls() const {
    std::vector<std::vector<size_t>> b(g_->vertices());
    for (size_t t = 0; t < triangles(); ++t)
      for (int c = 0; c < 3; ++c) b[tri()[3 * t + c]].push_back(t);
    return b;
  }
  // Every element of a 4-vector field against the CPU's (w zero): `want(e)`.
  template <class F>
  void expect_vec4(const std::string& field, size_t count, F want, double tol = 2e-6) {
    auto got = g_->download(field);
    ASSERT_EQ(got.size(), 4 * count) << field;
    for (size_t e = 0; e < count; ++e) {
      glm::dvec3 w = want(e);
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[4 * e + c], w[c], tol * (1.0 + std::abs(w[c]))) << field << e << c;
      EXPECT_EQ(got[4 * e + 3], 0.0) << field << " w at " << e;
    }
  }

  Mesh m_;
  std::unique_ptr<GpuMesh> g_;
  std::vector<float> crd_;
  std::vector<std::unique_ptr<GpuMesh::Kernel>> kernels_;
  std::vector<Misprint> misprints_;
};

// The printed lines (the manual's own text, quoted), each block as consecutive lines of its file.
const std::map<std::string, std::vector<std::string>> kManualPrinted = {
    {"s2_3_iteration.cl", {"VerCrd = VerCrd + VerVitesse * VerDirection;"}},
    {"s2_4_barycentre.cl", {"Bar = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;"}},
    {"s2_4_distance.cl",
     {"float d1, d2, d3;", "d1 = distance(TriBar[0], TriBar[1]);", "d2 = distance(TriBar[0], TriBar[2]);",
      "d3 = distance(TriBar[0], TriBar[3]);", "distance = min(d1, d2);", "distance = min(distance, d3);"}},
    {"s2_4_smoothing.cl",
     {"int i;", "float4 NewCrd = {0};", "for(i=0;i<VerTriDegMax;i++)", "    NewCrd += VerTriBar[i];",
      "relaxed = 0.8 * relaxed + 0.2 * NewCrd / VerTriDeg;"}},
    {"s2_5_scatter_gather.cl",
     {"int i;", "float4 NewSol = {0};", "for(i=0;i<VerTriDegMax;i++)", "    NewSol += VerTriTmp[i];",
      "VerSol = NewSol / VerTriDeg;"}}};

TEST(MeshManualText, EveryPrintedKernelIsShippedVerbatim) {
  std::vector<std::string> files;
  for (auto& k : manual_kernels()) files.push_back(k.file);
  EXPECT_EQ(files, (std::vector<std::string>{"s2_3_iteration.cl", "s2_4_barycentre.cl", "s2_4_distance.cl",
                                             "s2_4_smoothing.cl", "s2_5_scatter_gather.cl"}))
      << "a new printed kernel needs its test below";
  for (auto& [file, block] : kManualPrinted) {
    std::string text = manual_file_text(file);
    EXPECT_TRUE(is_gmlib(text)) << file;
    EXPECT_NE(text.find("Maréchal 2020, GMlib v3 manual"), std::string::npos) << file << ": credited";
    auto lines = manual_lines_of(text);
    bool found = false;
    for (size_t at = 0; at + block.size() <= lines.size() && !found; ++at)
      found = std::equal(block.begin(), block.end(), lines.begin() + long(at));
    EXPECT_TRUE(found) << file << " holds the printed lines as printed, one after the other";
  }
  EXPECT_NE(manual_file_text("s2_5_scatter_gather.cl").find("Tmp = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;"),
            std::string::npos);
}

// Each misprint at its line: the file's line holds what the message names; refused on request.
TEST(MeshManualText, MisprintsAreFlaggedAtTheirLines) {
  const std::map<std::string, std::vector<std::pair<int, std::string>>> expected = {
      {"s2_3_iteration.cl", {}},
      {"s2_4_barycentre.cl", {{7, "TriCrd[3] reads past the end of TriCrd"}}},
      {"s2_4_distance.cl",
       {{7, "TriCrd[3] reads past the end of TriCrd"},
        {14, "the solution 'distance' hides the function distance()"},
        {17, "\"la distance maximum\"), its code takes min"},
        {18, "\"la distance maximum\"), its code takes min"}}},
      {"s2_4_smoothing.cl",
       {{7, "TriCrd[3] reads past the end of TriCrd"},
        {17, "'relaxed' is read here before the kernel stores it, but it is given in write mode only"}}},
      {"s2_5_scatter_gather.cl", {{8, "TriCrd[3] reads past the end of TriCrd"}}}};
  const std::map<std::string, std::string> at_line = {
      {"TriCrd[3]", "TriCrd[3]"}, {"distance()", "distance(TriBar"}, {"min", "= min("}, {"relaxed", "0.8 * relaxed"}};
  for (auto& [file, want] : expected) {
    std::string text = manual_file_text(file);
    auto lines = manual_lines_of(text);
    GmlibText t = from_gmlib(text, Misprints::Fix);
    EXPECT_EQ(manual_lines_of(t.glsl).size(), lines.size()) << file << ": the aliases keep the lines";
    ASSERT_EQ(t.misprints.size(), want.size()) << file << "\n" << misprint_report(t.misprints);
    for (size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(t.misprints[k].line, want[k].first) << file << ": " << t.misprints[k].what;
      EXPECT_NE(t.misprints[k].what.find(want[k].second), std::string::npos) << t.misprints[k].what;
      EXPECT_FALSE(t.misprints[k].fix.empty()) << "each has its evident fix";
      bool shown = false;  // the flagged line holds what the message is about
      for (auto& [key, text_on_line] : at_line)
        if (t.misprints[k].what.find(key) != std::string::npos)
          shown = shown || lines.at(size_t(want[k].first - 1)).find(text_on_line) != std::string::npos;
      EXPECT_TRUE(shown) << file << " line " << want[k].first << ": " << lines.at(size_t(want[k].first - 1));
    }
    if (want.empty()) {
      EXPECT_NO_THROW(from_gmlib(text, Misprints::Refuse)) << file;
      continue;
    }
    try {
      from_gmlib(text, Misprints::Refuse);
      ADD_FAILURE() << file << ": refused on request";
    } catch (const KernelError& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("refused (misprints = refuse)"), std::string::npos) << msg;
      for (auto& [line, what] : want) EXPECT_NE(msg.find("line " + std::to_string(line) + ": "), std::string::npos);
    }
  }
}

// The OpenCL spellings the aliases read, and what they refuse with the line.
TEST(MeshManualText, OpenClSpellingsAndTheirLimits) {
  std::string text =
      "// dialect: gmlib\n// loop: Ver\n// data: Speed GmlFlt Ver\n// data: Dir float4 Ver\n"
      "float4 a = {1.f, 2.f, 3.f, 4.f}; int4 b = {0};\n"
      "VerSpeed = (float)get_global_id(0) + (float)(b.x) + a.w; /* get_global_id(0) in a comment */\n"
      "Dir = (float4)(1.0f, 0.0f, 0.0f, 0.0f) * Speed;\n";
  GmlibText t = from_gmlib(text, Misprints::Refuse);
  EXPECT_TRUE(t.misprints.empty());
  auto lines = manual_lines_of(t.glsl);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[2], "// field: Speed float Ver");
  EXPECT_EQ(lines[3], "// field: Dir vec4 Ver");
  EXPECT_NE(lines[4].find("vec4 a = vec4(1.f, 2.f, 3.f, 4.f); ivec4 b = ivec4(0);"), std::string::npos) << lines[4];
  EXPECT_NE(lines[5].find("VerSpeed = float(gml_i_) + float(b.x) + a.w;"), std::string::npos) << lines[5];
  EXPECT_EQ(lines[5].find("get_global_id"), std::string::npos) << "the comment goes, the line stays";
  EXPECT_NE(lines[6].find("VerDir = vec4(1.0f, 0.0f, 0.0f, 0.0f) * VerSpeed;"), std::string::npos) << lines[6];
  auto refused = [](const std::string& body, const std::string& words) {
    try {
      from_gmlib("// dialect: gmlib\n// loop: Tri\n// data: Bar GmlFlt4 Tri\n" + body, Misprints::Fix);
      return std::string("accepted");
    } catch (const KernelError& e) {
      std::string m = e.what();
      return m.find(words) != std::string::npos ? std::string() : m;
    }
  };
  EXPECT_EQ(refused("float4 a = {1.f, 2.f};\n", "line 4: {...} gives 2 of the 4 components"), "");
  EXPECT_EQ(refused("Bar.x = get_global_id(1);\n", "line 4: get_global_id(0)"), "");
  EXPECT_EQ(refused("// data: W GmlFlt9 Tri\n", "line 4: '// data: W GmlFlt9 Tri'"), "");
  // Two indices past the end and one missing: no evident fix, refused even with Fix.
  EXPECT_EQ(refused("Bar = TriCrd[0] + TriCrd[3] + TriCrd[4];\n", "no evident fix"), "");
  // The evident fix as printed and a text with nothing wrong: the same GLSL.
  std::string printed = "// dialect: gmlib\n// loop: Tri\n// data: Bar GmlFlt4 Tri write\n";
  GmlibText fixed = from_gmlib(printed + "Bar = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;\n", Misprints::Fix);
  GmlibText right = from_gmlib(printed + "Bar = (TriCrd[0] + TriCrd[1] + TriCrd[2]) / 3.;\n", Misprints::Refuse);
  EXPECT_EQ(fixed.glsl, right.glsl);
  EXPECT_EQ(fixed.misprints.size(), 1u);
  EXPECT_TRUE(right.misprints.empty());
  EXPECT_FALSE(is_gmlib("// loop: Tri\nTriBar.x = 1.0;\n"));
  // Broken text: translated or refused with a message, never a crash or a hang.
  for (std::string bad : {". [", "Bar.", "(float)", "(float4)(", "{", "float4 x = {", "TriCrd[", "TriCrd[3",
                          "get_global_id", "Bar = (float)", "/* open", "Bar[[[", "x = (int))(", "Bar++ += ;"})
    try {
      from_gmlib(printed + bad + "\n", Misprints::Fix);
    } catch (const KernelError&) {}
}

// §2.1/§2.3 iteration.cl, after our fill of Vitesse and Direction: VerCrd += Vitesse·Direction, twice.
TEST_F(MeshManual, IterationAsPrinted) {
  run("s2_3_iteration.cl", 2);
  EXPECT_TRUE(misprints_.empty());
  size_t n = g_->vertices();
  auto vit = g_->download("Vitesse");
  ASSERT_EQ(vit.size(), n);
  expect_vec4("Direction", n, [](size_t v) {
    uint32_t h = uint32_t(v) * 2654435761u;
    glm::vec3 d = glm::vec3(float(h & 255u), float((h >> 8) & 255u), float(h >> 24)) - 127.5f;
    return glm::dvec3(glm::normalize(d));
  });
  auto coords = g_->coordinates();
  for (size_t v = 0; v < n; ++v) {
    uint32_t h = uint32_t(v) * 2654435761u;
    float s = 0.002f * float(h >> 16) / 65536.0f;
    EXPECT_NEAR(vit[v], s, 1e-8) << v;
    glm::vec3 d = glm::normalize(glm::vec3(float(h & 255u), float((h >> 8) & 255u), float(h >> 24)) - 127.5f);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(coords[4 * v + c], crd_[4 * v + c] + 2.0f * s * d[c], 1e-6) << v;
  }
}

// §2.4 barycentre: Bar = the mean of the three vertices (TriCrd[2] for the printed TriCrd[3]).
TEST_F(MeshManual, BarycentreAsPrinted) {
  run("s2_4_barycentre.cl", 1, {{"Bar", std::vector<double>(4 * 128, 7.0)}});
  EXPECT_EQ(misprints_.size(), 1u);
  expect_vec4("Bar", triangles(), [&](size_t t) { return barycentre(t); });
}

// §2.4 distance: the largest distance from a triangle's barycentre to its neighbours' (max, as
// the text says), a missing neighbour reading zero: the neighbours found here from the edges.
TEST_F(MeshManual, DistanceAsPrinted) {
  run("s2_4_distance.cl", 1);
  EXPECT_EQ(misprints_.size(), 4u);
  std::map<std::pair<uint32_t, uint32_t>, std::vector<size_t>> by_edge;
  for (size_t t = 0; t < triangles(); ++t)
    for (int c = 0; c < 3; ++c) {
      uint32_t a = tri()[3 * t + c], b = tri()[3 * t + (c + 1) % 3];
      by_edge[{std::min(a, b), std::max(a, b)}].push_back(t);
    }
  auto got = g_->download("Distance");
  ASSERT_EQ(got.size(), triangles());
  size_t boundary = 0;
  for (size_t t = 0; t < triangles(); ++t) {
    double want = 0.0;
    for (int c = 0; c < 3; ++c) {
      uint32_t a = tri()[3 * t + c], b = tri()[3 * t + (c + 1) % 3];
      auto& two = by_edge.at({std::min(a, b), std::max(a, b)});
      glm::dvec3 other(0.0);
      if (two.size() == 2)
        other = barycentre(two[0] == t ? two[1] : two[0]);
      else
        ++boundary;
      want = std::max(want, glm::length(barycentre(t) - other));
    }
    EXPECT_NEAR(got[t], want, 2e-6 * (1.0 + want)) << t;
  }
  EXPECT_GT(boundary, 0u) << "the surface has a boundary: the zero neighbour is exercised";
  expect_vec4("Bar", triangles(), [&](size_t t) { return barycentre(t); });
}

// §2.4 smoothing: relaxed = 0.8·relaxed + 0.2·(sum of the ball's barycentres)/degree, from
// random values (read as GmlReadMode would, the fix), twice.
TEST_F(MeshManual, SmoothingAsPrinted) {
  size_t nv = 81;
  std::vector<double> start(4 * nv);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (size_t k = 0; k < start.size(); ++k) start[k] = k % 4 == 3 ? 0.0 : u(rng);
  run("s2_4_smoothing.cl", 2, {{"Relaxed", start}});
  ASSERT_EQ(g_->vertices(), nv);
  EXPECT_EQ(misprints_.size(), 2u);
  auto ball = balls();
  expect_vec4("Relaxed", nv, [&](size_t v) {
    glm::dvec3 mean(0.0);
    for (size_t t : ball[v]) mean += barycentre(t);
    mean /= double(ball[v].size());
    glm::dvec3 r(start[4 * v], start[4 * v + 1], start[4 * v + 2]);
    for (int k = 0; k < 2; ++k) r = 0.8 * r + 0.2 * mean;
    return r;
  });
}

// §2.5 the scatter/gather pair: Tmp the barycentres, VerSol their mean over the ball.
TEST_F(MeshManual, ScatterGatherAsPrinted) {
  run("s2_5_scatter_gather.cl", 1);
  EXPECT_EQ(misprints_.size(), 1u);
  expect_vec4("Tmp", triangles(), [&](size_t t) { return barycentre(t); });
  auto ball = balls();
  expect_vec4("Sol", g_->vertices(), [&](size_t v) {
    glm::dvec3 s(0.0);
    for (size_t t : ball[v]) s += barycentre(t);
    return s / double(ball[v].size());
  });
}

// Headless: a printed kernel as --kernel prints its misprints with their lines and dumps them;
// refused on request (exit 1, the lines named); as an example of the window's list it runs.
TEST(Cli, MeshLabRunsTheManualsKernelsAsPrinted) {
  auto dir = scratch("mesh-manual");
  std::string file = std::string(VKLAB_SOURCE_ASSET_DIR) + "/mesh/kernels/manual/s2_4_distance.cl";
  auto r = run_process(vklab_args("--headless --lab mesh --set grid_size=8 --steps 2 --kernel " + file + " --dump " +
                                  (dir / "out").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("line 14: the solution 'distance' hides the function distance()"), std::string::npos) << r.out;
  nlohmann::json p = nlohmann::json::parse(std::ifstream(dir / "out" / "params.json"));
  std::vector<int> lines;
  for (auto& m : p.at("state").at("gmlib_misprints")) lines.push_back(m.at("line").get<int>());
  EXPECT_EQ(lines, (std::vector<int>{7, 14, 17, 18}));
  r = run_process(
      vklab_args("--headless --lab mesh --set grid_size=8 --steps 1 --set misprints=refuse --kernel " + file));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("refused (misprints = refuse)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 18: "), std::string::npos) << r.err;
  r =
      run_process(vklab_args("--headless --lab mesh --set grid_size=8 --steps 2 --set \"example=manual as printed: "
                             "§2.4 smoothing\" --dump " +
                             (dir / "ex").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json q = nlohmann::json::parse(std::ifstream(dir / "ex" / "params.json"));
  EXPECT_EQ(q.at("state").at("gmlib_misprints").size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(dir / "ex" / "Relaxed.npy"));
}

}  // namespace
