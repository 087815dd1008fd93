// The mesh lab from the command line: kernel and mesh files, volumes, solutions, the clip plane, the watchdog.
#include "compute/io/npy.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/io/meshb.h"
#include "compute/mesh/links.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cfloat>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

// A mesh kernel that writes NaN: the mesh lab stops and says which field and example.
TEST(Cli, MeshLabStopsOnNonFiniteFields) {
  auto dir = scratch("mesh-nan");
  std::ofstream(dir / "nan.glsl") << "// loop: Tri\nTriBad.x = TriVerCrd[0].x * uintBitsToFloat(0x7f800000u);\n";
  auto r = run_process(
      vklab_args("--headless --lab mesh --steps 3 --set color_field=Bad --kernel " + (dir / "nan.glsl").string()));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("vklab: stopped: the kernels made Bad[0] NaN or infinite"), std::string::npos) << r.err;
  // the smoothing example on a volume mesh (vertices on no triangle) stays finite
  r = run_process(vklab_args("--headless --lab mesh --steps 20 --mesh " + std::string(VKLAB_SOURCE_ASSET_DIR) +
                             "/mesh/bracket.mesh"));
  EXPECT_EQ(r.code, 0) << r.err;
}

// A kernel whose nested loops would never end (a wedged GPU on real hardware): the loop budget
// ends the run by itself within seconds, exit 3 with one line naming the kernel and the line.
TEST(Cli, MeshLabEndsAKernelThatNeverEnds) {
  auto dir = scratch("mesh-hang");
  std::ofstream(dir / "hang.glsl")
      << "// loop: Ver\n"
         "for (uint i = 0u; i < 0xffffffffu; i++)\n"
         "  for (uint j = 0u; j < 0xffffffffu; j++) VerCrd.x = VerCrd.x * 1.0000001 + 1e-30;\n";
  auto start = std::chrono::steady_clock::now();
  auto r = run_process(vklab_args("--headless --lab mesh --kernel " + (dir / "hang.glsl").string() + " --steps 3"));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_LT(seconds, 20.0);
  EXPECT_NE(r.err.find("vklab: stopped: kernel 1 (line 1, loop: Ver): its for loop at line 3 ran out of the loop "
                       "budget"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("mesh on "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 1 steps"), std::string::npos) << "stopped after the first run: " << r.out;
}

// The mesh lab from the command line: a .meshb file and a kernel file; the dumped field
// equals the CPU loop; a kernel that does not compile, or a broken mesh file, ends the run
// with a message naming it; the quick bench has its rows.
TEST(Cli, MeshLabRunsKernelFilesOnMeshFiles) {
  auto dir = scratch("meshlab");
  mesh::Mesh m;
  m.xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5};
  m.vref = {0, 0, 0, 0};
  m.elements.push_back({mesh::Kind::Triangles, {0, 1, 2, 1, 3, 2}, {1, 2}});
  mesh::write_mesh(dir / "two.meshb", m, 2);
  std::ofstream(dir / "k.glsl") << "// loop: Tri\nTriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], "
                                   "TriVerCrd[2] - TriVerCrd[0]));\n---\n// loop: Ver\nfloat a = 0.0;\n"
                                   "for (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\nVerStar.x = a;\n";
  auto r = run_process(vklab_args("--headless --validate --lab mesh --mesh " + (dir / "two.meshb").string() +
                                  " --kernel " + (dir / "k.glsl").string() + " --steps 2 --size 320x240 --capture " +
                                  (dir / "m.png").string() + " --dump " + (dir / "d").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(dir / "m.png"), 1000u);
  auto area = read_npy(dir / "d" / "Area.npy"), star = read_npy(dir / "d" / "Star.npy");
  ASSERT_EQ(area.size(), 8u);
  EXPECT_NEAR(area[0], 0.5, 1e-6);
  double second = 0.5 * std::sqrt(0.25 + 0.25 + 1.0);  // (1,0,0)-(1,1,.5)-(0,1,0)
  EXPECT_NEAR(area[4], second, 1e-6);
  EXPECT_NEAR(star[0], 0.5, 1e-6);           // vertex 0: the first triangle only
  EXPECT_NEAR(star[4], 0.5 + second, 1e-6);  // vertex 1: both
  EXPECT_NEAR(star[12], second, 1e-6);       // vertex 3: the second

  // the same as VTK for ParaView, read back: points, the two triangles, Area per cell, Star per vertex
  {
    std::ifstream f(dir / "d" / "mesh.Triangles.vtu");
    std::string xml((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(xml.find("NumberOfPoints=\"4\" NumberOfCells=\"2\""), std::string::npos);
    auto values = [&](const std::string& name) {
      size_t at = xml.find("Name=\"" + name + "\"");
      EXPECT_NE(at, std::string::npos) << name;
      if (at == std::string::npos) return std::vector<double>{};
      at = xml.find('>', at) + 1;
      std::istringstream in(xml.substr(at, xml.find("</DataArray>", at) - at));
      std::vector<double> v;
      for (double x; in >> x;) v.push_back(x);
      return v;
    };
    EXPECT_EQ(values("connectivity"), (std::vector<double>{0, 1, 2, 1, 3, 2}));
    EXPECT_EQ(values("types"), (std::vector<double>{5, 5}));
    auto xyz = values("VerCrd");
    ASSERT_EQ(xyz.size(), 12u);
    EXPECT_EQ(xyz[11], 0.5);
    auto a = values("Area"), st = values("Star");
    ASSERT_EQ(a.size(), 8u) << "a vec4 a triangle";
    EXPECT_NEAR(a[4], second, 1e-6);
    ASSERT_EQ(st.size(), 16u);
    EXPECT_NEAR(st[4], 0.5 + second, 1e-6);
    EXPECT_EQ(xml.find("Name=\"Star\"") < xml.find("<CellData>"), true) << "Star is PointData";
  }

  // a solution at the vertices, attached as the field Sol and reduced in the dump
  mesh::Solutions sol;
  sol.fields.push_back({mesh::Kind::Vertices, {1}, {1, 2, 3, 4}});
  mesh::write_solution(dir / "two.solb", sol, 2);
  r = run_process(vklab_args("--headless --validate --lab mesh --mesh " + (dir / "two.meshb").string() + " --sol " +
                             (dir / "two.solb").string() +
                             " --set example=areas --set color_field=Sol --steps 1 --dump " + (dir / "s").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json js = nlohmann::json::parse(std::ifstream(dir / "s" / "params.json"));
  EXPECT_EQ(js["state"]["reductions_x"]["Sol"]["sum"], 10.0);
  EXPECT_EQ(js["state"]["reductions_x"]["Sol"]["max"], 4.0);

  // a volume mesh (one tetrahedron, no triangles): the lab runs on its boundary faces
  mesh::Mesh tet;
  tet.xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  tet.vref = {0, 0, 0, 0};
  tet.elements.push_back({mesh::Kind::Tetrahedra, {0, 1, 2, 3}, {1}});
  mesh::write_mesh(dir / "tet.mesh", tet, 2);
  r = run_process(vklab_args("--headless --validate --lab mesh --mesh " + (dir / "tet.mesh").string() +
                             " --set example=areas --steps 1 --dump " + (dir / "t").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json jt = nlohmann::json::parse(std::ifstream(dir / "t" / "params.json"));
  EXPECT_EQ(jt["state"]["triangles"], 4);
  EXPECT_NEAR(jt["state"]["reductions_x"]["Area"]["sum"].get<double>(), 1.5 + std::sqrt(3.0) / 2, 1e-6);

  std::ofstream(dir / "bad.glsl") << "// loop: Tri\nTriArea.x = 1.0;\nTriArea.y = missing;\n";
  r = run_process(vklab_args("--headless --lab mesh --kernel " + (dir / "bad.glsl").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
  std::ofstream(dir / "bad.mesh") << "MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 zero 0\nEnd\n";
  r = run_process(vklab_args("--headless --lab mesh --mesh " + (dir / "bad.mesh").string() + " --steps 1"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.mesh: line 5"), std::string::npos) << r.err;
}

// The lab's quick bench, a test of its own: it takes half the time of the one above.
TEST(Cli, MeshQuickBenchTimesEveryRow) {
  auto dir = scratch("meshbench");
  auto r = run_process(vklab_args("bench --lab mesh --quick --validate --out " + (dir / "b.json").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(dir / "b.json"))["labs"]["mesh"];
  ASSERT_GE(rows.size(), 12u);  // down and up in 3 orders at 2 sizes, + gather vs atomics where the device has them
  for (auto& row : rows) EXPECT_GT(row["median_ms"].get<double>(), 0.0);
}

namespace {

// Lit pixels of a capture (the background is near black).
size_t lit_pixels(const fs::path& png) {
  auto pic = load_picture(png);
  size_t lit = 0;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) { lit += p[0] + p[1] + p[2] > 150; });
  return lit;
}

// Volumes from the command line: the generated cube of tetrahedra's volumes add up to 1
// and so do the vertices' dual cells; a solution at the tetrahedra of a mesh file feeds a
// kernel file over tetrahedra; the clip plane takes a part of the picture away, not all.
TEST(Cli, MeshLabVolumesSolutionsAndClip) {
  auto dir = scratch("meshvol");
  auto r = run_process(
      vklab_args("--headless --validate --lab mesh --set \"example=tetrahedra: volumes\" --set grid_size=16 "
                 "--steps 1 --size 320x240 --capture " +
                 (dir / "whole.png").string() + " --dump " + (dir / "v").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto js = nlohmann::json::parse(std::ifstream(dir / "v" / "params.json"))["state"];
  EXPECT_EQ(js["counts"]["Tetrahedra"], 6 * 4 * 4 * 4);
  EXPECT_NEAR(js["reductions_x"]["Vol"]["sum"].get<double>(), 1.0, 1e-5);
  EXPECT_NEAR(js["reductions_x"]["Dual"]["sum"].get<double>(), 1.0, 1e-5);
  EXPECT_GT(js["reductions_x"]["Vol"]["min"].get<double>(), 0.0) << "positively oriented";
  r = run_process(
      vklab_args("--headless --validate --lab mesh --set \"example=tetrahedra: volumes\" --set grid_size=16 "
                 "--set clip=true --set clip_at=0.5 --steps 1 --size 320x240 --capture " +
                 (dir / "clip.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  size_t whole = lit_pixels(dir / "whole.png"), clipped = lit_pixels(dir / "clip.png");
  EXPECT_GT(whole, 10000u);
  EXPECT_GT(clipped, whole / 4) << "half the cube stays";
  EXPECT_LT(clipped, whole * 95 / 100) << "the other half is gone";

  mesh::Mesh m = mesh::cube(2, mesh::Kind::Tetrahedra);
  mesh::write_mesh(dir / "cube.meshb", m, 3);
  mesh::Solutions sol;
  std::vector<double> values;
  for (int i = 0; i < 48; ++i) values.push_back(0.25 * i - 3);
  sol.fields.push_back({mesh::Kind::Tetrahedra, {1}, values});
  mesh::write_solution(dir / "cube.sol", sol, 2);
  std::ofstream(dir / "k.glsl")
      << "// loop: Tet\n// field: Twice float Tet\nTetTwice = 2.0 * float(TetSol) + float(TetRef);\n";
  r = run_process(vklab_args("--headless --validate --lab mesh --mesh " + (dir / "cube.meshb").string() + " --sol " +
                             (dir / "cube.sol").string() + " --kernel " + (dir / "k.glsl").string() +
                             " --set color_field=Twice --steps 1 --dump " + (dir / "s").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto twice = read_npy(dir / "s" / "Twice.npy");
  ASSERT_EQ(twice.size(), 48u);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(twice[i], 2 * values[i] + 1) << "tetrahedron " << i;
  // written back: the mesh as it was read (plus its extracted edges and boundary faces), and
  // the fields at the tetrahedra as one solution of two columns, Sol then Twice
  auto back = mesh::read_mesh(dir / "s" / "mesh.meshb");
  EXPECT_EQ(back.xyz, m.xyz);
  EXPECT_EQ(back.find(mesh::Kind::Tetrahedra)->v, m.find(mesh::Kind::Tetrahedra)->v);
  EXPECT_EQ(back.find(mesh::Kind::Triangles)->count(), 6u * 4 * 2)
      << "the cube's boundary: 6 sides of 2 x 2 squares, halved";
  EXPECT_EQ(back.find(mesh::Kind::Edges)->count(), 54u + 36 + 8) << "grid lines, square diagonals, cell diagonals";
  auto fields = mesh::read_solution(dir / "s" / "mesh.solb");
  ASSERT_EQ(fields.fields.size(), 1u);
  EXPECT_EQ(fields.fields[0].at, mesh::Kind::Tetrahedra);
  ASSERT_EQ(fields.fields[0].values.size(), 96u);
  for (int i = 0; i < 48; ++i) {
    EXPECT_EQ(fields.fields[0].values[2 * i], values[i]);
    EXPECT_EQ(fields.fields[0].values[2 * i + 1], 2 * values[i] + 1);
  }
  // a solution with a line per tetrahedron on a mesh with fewer: a message naming the file
  mesh::write_mesh(dir / "small.mesh", mesh::cube(1, mesh::Kind::Tetrahedra), 2);
  r = run_process(vklab_args("--headless --lab mesh --mesh " + (dir / "small.mesh").string() + " --sol " +
                             (dir / "cube.sol").string() + " --steps 1"));
  EXPECT_EQ(r.code, 2) << "bad input";
  EXPECT_NE(r.err.find("cube.sol: 48 values at Tetrahedra, the mesh has 6"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// Counts pixels by dominant colour: blue (the colour map's low end) and red (its high end).
std::pair<size_t, size_t> blue_red(const fs::path& png) {
  auto pic = load_picture(png);
  size_t blue = 0, red = 0;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
    int r = p[0], b = p[2];
    blue += b > r + 40, red += r > b + 40;
  });
  return {blue, red};
}

// Two tetrahedra sharing a face, coloured by their reference (1 blue, 2 red). Clipped so that
// only the second stays, the shared face — listed once, by the first — shows the second's red.
TEST(Cli, MeshClipShowsTheKeptElementsColour) {
  auto dir = scratch("meshclip");
  mesh::Mesh m;
  m.xyz = {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0.3, 0.3, -1, 0.3, 0.3};
  m.vref.assign(5, 0);
  m.elements.push_back({mesh::Kind::Tetrahedra, {0, 1, 2, 3, 0, 2, 1, 4}, {1, 2}});
  mesh::write_mesh(dir / "two.mesh", m, 2);
  std::ofstream(dir / "k.glsl") << "// field: C float Tet\n// loop: Tet\nTetC = float(TetRef);\n";
  std::string run = "--headless --validate --lab mesh --mesh " + (dir / "two.mesh").string() + " --kernel " +
                    (dir / "k.glsl").string() +
                    " --set color_field=C --set wireframe=false --steps 1 --size 320x240 --no-legend ";
  auto r = run_process(vklab_args(run + "--capture " + (dir / "both.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto [blue, red] = blue_red(dir / "both.png");
  EXPECT_GT(blue, 500u);
  EXPECT_GT(red, 500u);
  r = run_process(
      vklab_args(run + "--set clip=true --set clip_axis=x --set clip_at=0.5 --capture " + (dir / "clip.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto [blue2, red2] = blue_red(dir / "clip.png");
  EXPECT_LT(blue2, 20u) << "the first tetrahedron is gone, and the face it shared shows the second's colour";
  EXPECT_GT(red2, red) << "the uncovered face adds to the second's";

  // Uncoloured, the clipped pair is the second tetrahedron alone (same vertices, so the
  // same framing): its four faces, the shared one drawn, not a hole onto its back faces.
  mesh::Mesh one = m;
  one.elements[0] = {mesh::Kind::Tetrahedra, {0, 2, 1, 4}, {2}};
  mesh::write_mesh(dir / "one.mesh", one, 2);
  std::string grey = " --set color_field=None --steps 1 --size 320x240 --no-legend --capture ";
  r = run_process(vklab_args("--headless --lab mesh --mesh " + (dir / "one.mesh").string() + " --kernel " +
                             (dir / "k.glsl").string() + grey + (dir / "one.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_process(vklab_args("--headless --lab mesh --mesh " + (dir / "two.mesh").string() + " --kernel " +
                             (dir / "k.glsl").string() + " --set clip=true --set clip_axis=x --set clip_at=0.5" + grey +
                             (dir / "cut.png").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto a = load_picture(dir / "one.png"), b = load_picture(dir / "cut.png");
  ASSERT_TRUE(!a.empty() && a.w == b.w && a.h == b.h);
  size_t differ = 0, lit = 0;
  for (size_t i = 0; i < a.rgba.size(); i += 4) {
    int d = 0;
    for (size_t c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])));
    differ += d > 24, lit += a.rgba[i] + a.rgba[i + 1] + a.rgba[i + 2] > 150;
  }
  EXPECT_GT(lit, 2000u);
  EXPECT_LT(differ, lit / 100) << "pixels that differ between the cut pair and the lone tetrahedron";
}

}  // namespace

// A kernel file with a byte field, an 8-wide vector and faces=all on a volume: the lab runs it
// headless, colours by the byte field (its range is the GPU's reduction), and dumps each value.
TEST(Cli, MeshLabTakesBytesWideVectorsAndInnerFaces) {
  auto dir = scratch("mesh-types");
  std::ofstream(dir / "k.glsl") << "// field: Band int8_t Tri\n// field: Wide vec8 Ver\n// loop: Ver\n"
                                   "for (int k = 0; k < 8; ++k) VerWide[k] = float(i) + float(k);\n---\n// loop: Tri\n"
                                   "TriBand = int8_t(int(TriVerWide[0][7]) % 100 - 50);\n";
  auto r =
      run_process(vklab_args("--headless --validate --lab mesh --set generate=tetrahedra --set grid_size=12 "
                             "--set faces=all --set color_field=Band --kernel " +
                             (dir / "k.glsl").string() + " --steps 2 --dump " + (dir / "d").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "d" / "params.json"));
  auto& s = j.contains("state") ? j["state"] : j;
  size_t tets = s["counts"]["Tetrahedra"], tris = s["counts"]["Triangles"];
  EXPECT_GT(tris, tets) << "every face, inner ones too";
  auto wide = read_npy(dir / "d" / "Wide.npy"), band = read_npy(dir / "d" / "Band.npy");
  ASSERT_EQ(wide.size() % 8, 0u);
  for (size_t v = 0; v < wide.size() / 8; ++v)
    for (int k = 0; k < 8; ++k) ASSERT_EQ(wide[8 * v + k], float(v + k));
  ASSERT_EQ(band.size(), tris);
  double lo = 1e9, hi = -1e9;
  for (float b : band) {
    ASSERT_EQ(b, std::floor(b));
    lo = std::min(lo, double(b)), hi = std::max(hi, double(b));
  }
  EXPECT_EQ(s["reductions_x"]["Band"]["min"].get<double>(), lo);
  EXPECT_EQ(s["reductions_x"]["Band"]["max"].get<double>(), hi);
  EXPECT_GE(lo, -50.0);
  EXPECT_LT(hi, 50.0);
}

// mesh --write-mesh writes the mesh the knobs generate (vertices and cells alone, GMF 2); a run
// on that file reads it back whole and says how long each phase of opening it took, and when the
// kernels were first launched.
TEST(Cli, MeshWriteMeshAndTheOpeningsPhases) {
  auto dir = scratch("mesh-write");
  auto file = (dir / "cube.meshb").string();
  auto r = run_process(vklab_args("mesh --write-mesh --set generate=tetrahedra --set grid_size=16 --out " + file));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("125 vertices, 384 elements"), std::string::npos) << r.out;
  auto m = mesh::read_mesh(file);
  mesh::Mesh want = mesh::cube(4, mesh::Kind::Tetrahedra, 0.25);
  EXPECT_EQ(m.xyz, want.xyz);
  ASSERT_EQ(m.elements.size(), 1u) << "vertices and tetrahedra alone";
  EXPECT_EQ(m.elements[0].v, want.elements[0].v);
  r = run_process(vklab_args("--headless --lab mesh --set \"example=tetrahedra: volumes\" --steps 1 --mesh " + file));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* phase : {"mesh: opened in ", "read ", "faces ", "edges and tables ", "links and balls ", "kernels ",
                            "calibration ", "pictures "})
    EXPECT_NE(r.out.find(phase), std::string::npos) << phase << "\n" << r.out;
  double opened = -1, first_launch = -1;  // the kernels launched before the pictures are made
  ASSERT_EQ(std::sscanf(r.out.c_str() + r.out.find("mesh: opened in "),
                        "mesh: opened in %lf s, the first launch at %lf s", &opened, &first_launch),
            2)
      << r.out;
  EXPECT_GT(first_launch, 0.0);
  EXPECT_LE(first_launch, opened);  // printed to the hundredth: a small mesh's can be equal
  EXPECT_LT(r.out.find("calibration "), r.out.find("pictures ")) << r.out;
  r = run_process(vklab_args("mesh --write-mesh"));
  EXPECT_EQ(r.code, 2) << "no --out: " << r.err;
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}
