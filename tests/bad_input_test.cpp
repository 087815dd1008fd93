// Bad input (issue 13, part 6): every reader refuses what is not a regular file, headers that
// claim more than the file holds (before allocating), and values the GPU cannot compute with;
// sizes past the device's limits are refused before anything is built; each case is one line
// naming the file or parameter, with the exit code docs/CLI.md gives.
#include "compute/io/input.h"
#include "compute/io/npy.h"
#include "compute/io/pgm.h"
#include "compute/machining/io/gcode.h"
#include "compute/machining/io/path.h"
#include "compute/machining/io/tool.h"
#include "compute/mesh/io/kernel_words.h"
#include "compute/mesh/io/meshb.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/links.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <functional>

namespace fs = std::filesystem;

namespace {

std::string vklab(const std::string& args) { return "timeout 120 " + vklab_exe() + " " + args; }

// The reader throws std::runtime_error whose text holds every one of `parts`.
void expect_refused(const std::function<void()>& read, const std::vector<std::string>& parts,
                    const std::string& label) {
  try {
    read();
    ADD_FAILURE() << label << ": accepted";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    for (auto& p : parts) EXPECT_NE(what.find(p), std::string::npos) << label << ": " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": " << typeid(e).name() << ": " << e.what();
  }
}

std::string meshb_v4(int64_t vertices_claimed) {  // a v4 .meshb header whose Vertices count is as given
  std::string s;
  auto put = [&](auto v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(int32_t(1)), put(int32_t(4));
  put(int32_t(3)), put(int64_t(24)), put(int32_t(3));  // Dimension 3, next keyword at 24
  put(int32_t(4)), put(int64_t(0)), put(vertices_claimed);
  s.append(64, '\0');
  return s;
}

}  // namespace

// A FIFO would block forever and /dev/zero never ends: every reader refuses them at once.
TEST(BadInput, EveryReaderRefusesWhatIsNotARegularFile) {
  auto dir = scratch("special");
  fs::path fifo = dir / "pipe.mesh";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (fs::path p : {fifo, fs::path("/dev/zero")}) {
    std::string n = p.string();
    expect_refused([&] { mesh::read_mesh(p); }, {n, "not a regular file"}, "mesh " + n);
    expect_refused([&] { mesh::read_solution(p); }, {n, "not a regular file"}, "sol " + n);
    expect_refused([&] { machining::read_stl(p); }, {n, "not a regular file"}, "stl " + n);
    expect_refused([&] { machining::read_positions(p); }, {n, "not a regular file"}, "positions " + n);
    expect_refused([&] { machining::read_gcode(p, 0.1f); }, {n, "not a regular file"}, "gcode " + n);
    expect_refused([&] { read_npy(p); }, {n, "not a regular file"}, "npy " + n);
    expect_refused([&] { read_pgm(p); }, {n, "not a regular file"}, "pgm " + n);
  }
  expect_refused([&] { mesh::read_mesh(dir); }, {"is a directory"}, "directory");
  expect_refused([&] { io::read_input(dir / "absent.mesh"); }, {"absent.mesh", "cannot read"}, "absent");
  std::ofstream(dir / "big.txt") << std::string(4096, 'x');
  expect_refused([&] { io::read_input(dir / "big.txt", 1024); }, {"big.txt", "4 KiB, more than the 1 KiB"},
                 "past the size limit");
}

// Counts past what the rest of the file can hold are refused before anything is allocated
// (a 2^40 count would otherwise reserve terabytes), in both formats and for every keyword.
TEST(BadInput, MeshHeadersThatClaimTooMuchAreRefusedBeforeAllocating) {
  const std::string head = "MeshVersionFormatted 2\nDimension 3\n";
  auto text = [](const std::string& s) { return [s] { mesh::parse_mesh(s, "m.mesh", false); }; };
  expect_refused(text(head + "Vertices\n1099511627776\n0 0 0 0\nEnd\n"), {"m.mesh: line 4", "does not fit"}, "ascii");
  expect_refused(text(head + "Vertices\n1\n0 0 0 0\nTriangles\n9223372036854775807\n1 1 1 0\nEnd\n"),
                 {"Triangles count", "does not fit"}, "ascii elements");
  expect_refused(text(head + "Corners\n4611686018427387904\n1\nEnd\n"), {"Corners count"}, "ascii skipped keyword");
  // count x 32 bytes wraps to 0 in 64 bits: the check divides instead
  expect_refused([] { mesh::parse_mesh(meshb_v4(int64_t(1) << 59), "m.meshb", true); },
                 {"m.meshb: offset", "does not fit"}, "v4 wrap");
  expect_refused([] { mesh::parse_mesh(meshb_v4(-1), "m.meshb", true); }, {"count -1"}, "v4 negative");
  auto sol = [](const std::string& s) { return [s] { mesh::parse_solution(s, "s.sol", false); }; };
  // n x width overflowed int64 (UBSan) before
  expect_refused(sol("MeshVersionFormatted 2\nDimension 3\nSolAtVertices\n4611686018427387904\n2 2 2\n1\nEnd\n"),
                 {"s.sol", "does not fit"}, "sol overflow");
}

TEST(BadInput, MeshesMustHaveVerticesOneDimensionDistinctNodesAndComputableValues) {
  const std::string head = "MeshVersionFormatted 2\nDimension 3\n";
  const std::string verts = "Vertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\n";
  auto text = [](const std::string& s) { return [s] { mesh::parse_mesh(s, "m.mesh", false); }; };
  expect_refused(text(head + "End\n"), {"m.mesh", "no vertices"}, "nothing");
  expect_refused(text(head + "Vertices\n0\nEnd\n"), {"no vertices"}, "zero vertices");
  // a second Dimension after Vertices changed the stride the coordinates were read with
  expect_refused(text(head + verts + "Dimension 2\nEnd\n"), {"line 8", "a second Dimension"}, "second Dimension");
  expect_refused(text(head + verts + "Triangles\n1\n1 2 2 0\nEnd\n"), {"Triangles 1", "vertex 2 appears twice"},
                 "degenerate");
  expect_refused(text(head + "Vertices\n1\n1e308 0 0 0\nEnd\n"), {"'1e308' is beyond"}, "1e308");
  expect_refused(text(head + "Vertices\n1\n0 -3e10 0 0\nEnd\n"), {"beyond"}, "3e10");
  expect_refused(
      [] {
        mesh::parse_solution("MeshVersionFormatted 2\nDimension 3\nSolAtVertices\n1\n1 1\n1e300\nEnd\n", "s.sol",
                             false);
      },
      {"s.sol: line 6", "beyond"}, "sol value");
  // still read: what the checks must not refuse
  mesh::Mesh m = mesh::parse_mesh(head + verts + "Triangles\n1\n1 2 3 0\nEnd\n", "ok.mesh", false);
  EXPECT_EQ(m.vertices(), 3u);
  EXPECT_EQ(m.find(mesh::Kind::Triangles)->count(), 1u);
}

// One vertex in every triangle: the padded ball table would need gigabytes.
TEST(BadInput, BallsThatWouldPadPastTheLimitAreRefused) {
  size_t triangles = 1'500'000, vertices = 2 * triangles + 1;
  std::vector<uint32_t> tv;
  for (size_t t = 0; t < triangles; ++t) tv.insert(tv.end(), {0u, uint32_t(2 * t + 1), uint32_t(2 * t + 2)});
  try {
    mesh::upward(tv, 3, vertices);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("entity 1 lies on 1500000 elements"), std::string::npos) << e.what();
  }
}

TEST(BadInput, ArraysAndImagesClaimingMoreThanTheFileAreRefused) {
  std::string npy("\x93NUMPY\x01\x00", 8);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }";
  header.append(117 - header.size(), ' ') += '\n';
  npy += char(header.size()), npy += '\0', npy += header;
  expect_refused([&] { parse_npy(npy + std::string(64, '\0'), "s.npy"); }, {"s.npy", "more floats than the file's 16"},
                 "npy 40 GB");
  std::string wrap = npy;
  wrap.replace(wrap.find("100000, 100000"), 14, "4294967296, 4294967297");
  expect_refused([&] { parse_npy(wrap, "w.npy"); }, {"w.npy", "more floats than"}, "npy wrap");
  std::string bad = npy;
  bad.replace(bad.find("100000, 100000"), 14, "-5, 3         ");
  expect_refused([&] { parse_npy(bad, "b.npy"); }, {"'-5' is not a size"}, "npy negative");
  expect_refused([&] { parse_npy(npy.substr(0, 40), "t.npy"); }, {"header is longer"}, "npy truncated");
  expect_refused([] { parse_pgm("P5 32768 32768 255\n", "p.pgm"); }, {"p.pgm", "shorter than 1073741824"}, "pgm P5");
  expect_refused([] { parse_pgm("P2 32768 32768 255\n0 0 0", "p.pgm"); }, {"cannot fit"}, "pgm P2");
  GrayImage ok = parse_pgm("P2 2 1 10\n0 10", "ok.pgm");
  EXPECT_EQ(ok.values, (std::vector<float>{0.0f, 1.0f}));
}

// Coordinates a tool, a path or G-code gives must stay where single precision can square
// them; G-code moves cannot grow a path past its cap (a 300-byte file made gigabytes).
TEST(BadInput, ToolsAndPathsStayWithinComputableRangesAndCaps) {
  expect_refused(
      [] {
        machining::parse_stl(
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e30 0 0\n"
            "vertex 0 1 0\nendloop\nendfacet\nendsolid t\n",
            "t.stl");
      },
      {"t.stl: line 5", "beyond"}, "stl");
  expect_refused([] { machining::parse_positions("1 2 3\n3e38 0 -1\n", "p.txt"); }, {"p.txt:2", "beyond"}, "3e38");
  expect_refused([] { machining::parse_positions("1 2 3\n1e308 0 -1\n", "p.txt"); }, {"p.txt:2", "not a number"},
                 "1e308");
  expect_refused([] { machining::parse_gcode("G1 X0 Y0 Z0\nG1 X1000000000\n", "g.nc", 0.1f); }, {"g.nc:2", "beyond"},
                 "X1000000000");
  expect_refused([] { machining::parse_gcode("G1 X0 Y0 Z0\nG1 X900000\n", "g.nc", 0.01f); },
                 {"g.nc:2", "passes 10000000 positions"}, "one long move");
  std::string many = "G1 X0 Y0 Z0\n";
  for (int i = 0; i < 40; ++i) many += i % 2 ? "X0\n" : "X5000\n";  // each move 500 000 positions at 0.01
  expect_refused([&] { machining::parse_gcode(many, "g.nc", 0.01f); }, {"passes 10000000"}, "many moves");
  expect_refused([] { machining::parse_gcode("G1.5 X1\n", "g.nc", 0.1f); }, {"g.nc:1", "not supported"}, "G1.5");
  EXPECT_EQ(machining::parse_gcode("G1 X0 Y0 Z0\nG1 X1\n", "g.nc", 0.25f).positions.size(), 5u);
}

// libstdc++'s std::regex recursed once a character: a 50 KB line overflowed the stack.
TEST(BadInput, KernelTextWithVeryLongLinesIsScannedWithoutRecursion) {
  std::string text = "// loop: Tri\n// " + std::string(200000, 'x') + "\nTriArea.x = 1.0; /* " +
                     std::string(200000, 'y') + " */\n" + std::string(200000, ' ') + "TriNormal.x = 2.0;\n";
  auto f = mesh::fields_named(text, {});
  EXPECT_EQ(f.size(), 2u);
  EXPECT_TRUE(f.count("Area") && f.count("Normal"));
  auto sections = mesh::split(text + "---\n// loop: Hex  (comment)\nHexVol.x = 1.0;\n");
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[1].loop, mesh::Kind::Hexahedra);
  EXPECT_EQ(mesh::words::strip_comments("a // b\nc /* d */ e").find('b'), std::string::npos);
  EXPECT_TRUE(mesh::words::names("x = TriArea.x;", "TriArea"));
  EXPECT_FALSE(mesh::words::names("x = TriAreaB + 1e5;", "TriArea"));
  EXPECT_FALSE(mesh::words::names("x = 1e5;", "e5"));
  auto decl = mesh::words::field_declarations("// field: Temp double Ver\n//field:Bad\n");
  ASSERT_EQ(decl.size(), 1u);
  EXPECT_EQ(decl[0].name + decl[0].type + decl[0].kind, "TempdoubleVer");
}

// From the command line: one line, the exit code of the rule (2 parameters and sizes, 1 files).
TEST(BadInput, HeadlessRunsRefuseWithOneLineAndTheRulesExitCode) {
  auto dir = scratch("cli");
  struct Case {
    std::string args;
    int code;
    std::string says;
  };
  std::ofstream(dir / "empty.mesh") << "MeshVersionFormatted 2\nDimension 3\nVertices\n0\nEnd\n";
  std::ofstream(dir / "far.nc") << "G1 X0 Y0 Z0\nG1 X1000000000\n";
  ASSERT_EQ(::mkfifo((dir / "fifo.mesh").c_str(), 0600), 0);
  {
    std::vector<float> h(32 * 32, 0.0f);
    h[77] = std::nanf("");
    write_npy(dir / "nan.npy", h, {32, 32});
  }
  std::vector<Case> cases = {
      {"--lab mesh --mesh " + (dir / "empty.mesh").string(), 1, "empty.mesh: no vertices"},
      {"--lab mesh --mesh " + (dir / "fifo.mesh").string(), 1, "not a regular file"},
      {"--lab mesh --mesh " + std::string(VKLAB_SOURCE_ASSET_DIR) +
           "/mesh/sphere.mesh --set 'example=tetrahedra: volumes'",
       1, "these kernels need Tetrahedra; this mesh has none (it has Vertices, Edges, Triangles)"},
      {"--lab machining --path " + (dir / "far.nc").string(), 1, "far.nc:2: 'X' is beyond"},
      {"--lab machining --set stock_size=32 --set stock_file=" + (dir / "nan.npy").string(), 1, "height 77 is nan"},
      {"--lab machining --set surface=dome --set surface_radius=20", 2, "a radius of at least 46"},
      {"--lab machining --set rays=normal --set precision=double", 2, "the N-buffer is single precision"},
      {"--lab machining --set rays=normal --set tool_model=analytic", 2,
       "the N-buffer intersects the tool's triangles"},
      {"--lab linalg --set side=4096 --set diagonals=64 --set layout=buffer", 2, "linalg banded side 4096"},
      {"--lab mesh --set generate=hexahedra --set grid_size=4096", 2, "mesh grid_size 4096 (hexahedra)"}};
  // 256 MiB buffers: past lavapipe's range (128 MiB), within an H100's
  if (test_context().props.limits.maxStorageBufferRange < (256u << 20)) {
    cases.push_back({"--lab machining --set stock_size=8192", 2, "machining stock of 8192 x 8192 brins"});
    cases.push_back({"--lab cloth --set size=4096", 2, "cloth of 4096 x 4096 particles"});
  }
  for (auto& c : cases) {
    auto r = run_process(vklab("--headless --steps 1 " + c.args));
    EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
}

// A valid file name that is not UTF-8 still gets its params.json (the name's bad bytes replaced).
TEST(BadInput, NonUtf8FileNamesDoNotBreakTheDump) {
  auto dir = scratch("utf8");
  fs::path mesh = dir / std::string("caf\xe9.mesh");
  std::ofstream(mesh) << "MeshVersionFormatted 2\nDimension 3\nVertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\n"
                         "Triangles\n1\n1 2 3 0\nEnd\n";
  auto r = run_process(vklab("--headless --lab mesh --set example=areas --steps 1 --mesh '" + mesh.string() +
                             "' --dump " + (dir / "d").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(std::ifstream(dir / "d" / "params.json"));
  EXPECT_NE(j["params"]["mesh_file"].get<std::string>().find("caf"), std::string::npos);
}
