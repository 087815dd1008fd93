#include "compute/mesh/kernel_text.h"

#include "compute/mesh/load_times.h"

#include "compute/io/user_text.h"
#include "compute/mesh/io/kernel_words.h"

#include <algorithm>
#include <cstring>
#include <future>
#include <optional>
#include <set>
#include <sstream>

namespace mesh {

// The seed's examples by name: each its kernels' text, the field to colour by and the mesh it
// is meant for.
// The signed volumes, the first section of "tetrahedra: volumes" and "tetrahedra: padded ball".
const std::string kTetVolumes =
    "// field: Vol float Tet\n"
    "// loop: Tet  (signed volume)\n"
    "TetVol = dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], TetVerCrd[3] - TetVerCrd[0])) / "
    "6.0;\n";
// GMlib's MeshQuality kernel body (compute_quality.cl), used by two of its samples.
const std::string kGmlibQuality =
    "float len = dot(TetVerCrd[0] - TetVerCrd[1], TetVerCrd[0] - TetVerCrd[1]);\n"
    "len = max(len, dot(TetVerCrd[0] - TetVerCrd[2], TetVerCrd[0] - TetVerCrd[2]));\n"
    "len = max(len, dot(TetVerCrd[0] - TetVerCrd[3], TetVerCrd[0] - TetVerCrd[3]));\n"
    "len = max(len, dot(TetVerCrd[1] - TetVerCrd[2], TetVerCrd[1] - TetVerCrd[2]));\n"
    "len = max(len, dot(TetVerCrd[1] - TetVerCrd[3], TetVerCrd[1] - TetVerCrd[3]));\n"
    "len = max(len, dot(TetVerCrd[2] - TetVerCrd[3], TetVerCrd[2] - TetVerCrd[3]));\n"
    "float srf = 0.5 * length(cross(TetVerCrd[2] - TetVerCrd[0], TetVerCrd[1] - TetVerCrd[0]))\n"
    "          + 0.5 * length(cross(TetVerCrd[3] - TetVerCrd[0], TetVerCrd[1] - TetVerCrd[0]));\n"
    "float vol = 0.166666 * dot(cross(TetVerCrd[1] - TetVerCrd[0], TetVerCrd[2] - TetVerCrd[0]),\n"
    "                           TetVerCrd[3] - TetVerCrd[0]);\n"
    "TetQal = 7.348469 * vol / (srf * sqrt(len));\n";

const std::map<std::string, Example>& mesh_examples() {
  static const std::map<std::string, Example> kExamples = {
      {"smoothing",
       {"// field: Relaxed vec4 Ver\n"
        "// loop: Tri  (manual §2.4, indirect downward: each triangle's barycentre)\n"
        "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
        "---\n"
        "// loop: Ver  (manual §2.4, upward, \"smoothing\" as printed: the sum over the whole padded ball,\n"
        "//            whose empty slots read zero; the coordinates stay, the field Relaxed moves a fifth of\n"
        "//            the way to the mean barycentre at each run)\n"
        "vec4 NewCrd = vec4(0.0);\n"
        "for (uint k = 0u; k < VerTriDegMax; ++k) NewCrd += VerTriBar[k];\n"
        "if (VerTriDeg > 0u)  // the manual divides by VerTriDeg even where it is 0 (inside a volume)\n"
        "  VerRelaxed = 0.8 * VerRelaxed + 0.2 * NewCrd / float(VerTriDeg);\n",
        "Relaxed", "surface"}},
      {"laplacian smoothing",
       {"// loop: Tri  (barycentres)\n"
        "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
        "---\n"
        "// loop: Ver  (ours, not the manual's: each vertex moves halfway to the mean barycentre of its ball)\n"
        "vec3 s = vec3(0.0);\n"
        "for (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
        "vec3 target = VerTriDeg > 0u ? s / float(VerTriDeg) : VerCrd;  // on no triangle (inside a volume): stays\n"
        "VerMove.x = length(target - VerCrd);\n"
        "VerCrd = mix(VerCrd, target, 0.5);\n",
        "Move", "surface"}},
      {"smoothing with parameters",
       {"// param: Weight float = 0.5\n"
        "// param: Tolerance float = 0.0001\n"
        "// param: Moved int\n"
        "// loop: Tri  (barycentres; the first triangle clears the flag the CPU reads after the launches)\n"
        "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
        "if (i == 0u) Par.Moved = 0;\n"
        "---\n"
        "// loop: Ver  (manual §4.18, GmlNewParameters: Par.Weight comes from the panel, no compiling;\n"
        "//            Par.Moved counts the vertices that moved more than Par.Tolerance, read back after)\n"
        "vec3 s = vec3(0.0);\n"
        "for (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
        "vec3 target = VerTriDeg > 0u ? s / float(VerTriDeg) : VerCrd;\n"
        "VerMove.x = Par.Weight * length(target - VerCrd);\n"
        "if (VerMove.x > Par.Tolerance) atomicAdd(Par.Moved, 1);\n"
        "VerCrd = mix(VerCrd, target, Par.Weight);\n",
        "Move", "surface"}},
      {"areas",
       {"// loop: Tri  (area of each triangle)\n"
        "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n",
        "Area", "surface"}},
      {"star areas",
       {"// loop: Tri  (areas, then gathered at the vertices: scatter by gathering)\n"
        "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
        "---\n"
        "// loop: Ver\n"
        "float a = 0.0;\n"
        "for (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\n"
        "VerStar.x = a;\n",
        "Star", "surface"}},
      {"star areas (atomics)",
       {"// loop: Ver  (clear, then scatter with float atomics: needs shaderBufferFloat32AtomicAdd)\n"
        "VerStar.x = 0.0;\n"
        "---\n"
        "// loop: Tri\n"
        "float a = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
        "atomicAdd(Star_[TriVer.x].x, a);\n"
        "atomicAdd(Star_[TriVer.y].x, a);\n"
        "atomicAdd(Star_[TriVer.z].x, a);\n",
        "Star", "surface"}},
      {"star areas (colouring)",
       {"// loop: Ver  (clear)\n"
        "VerStar.x = 0.0;\n"
        "---\n"
        "// loop: Tri  (GMlib manual §2.5's first way, sub-blocks: the triangles run colour by colour, no two of a\n"
        "//            colour sharing a vertex, so a plain += is safe: no atomics, no temporary field)\n"
        "// write: colouring\n"
        "float a = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
        "Star_[TriVer.x].x += a;\n"
        "Star_[TriVer.y].x += a;\n"
        "Star_[TriVer.z].x += a;\n",
        "Star", "surface"}},
      {"mean height per triangle",
       {"// loop: Tri  (chapter 3: the mean of the vertices' heights)\n"
        "TriMean.x = (TriVerCrd[0].z + TriVerCrd[1].z + TriVerCrd[2].z) / 3.0;\n",
        "Mean", "surface"}},
      {"neighbour distance",
       {"// loop: Tri  (manual §2.4: barycentres)\n"
        "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
        "---\n"
        "// loop: Tri  (manual §2.4, transverse, \"distance\" as printed: its text says the largest distance to\n"
        "//            the neighbours across the edges, its code takes the smallest, as here. Across a\n"
        "//            boundary the neighbour reads zero: there it is the distance to the origin, as in the manual)\n"
        "float d1 = distance(TriBar, TriTriBar[0]);\n"
        "float d2 = distance(TriBar, TriTriBar[1]);\n"
        "float d3 = distance(TriBar, TriTriBar[2]);\n"
        "TriDist.x = min(min(d1, d2), d3);\n",
        "Dist", "surface"}},
      {"valence (int atomics)",
       {"// field: Valence int Ver\n"
        "// loop: Ver  (clear)\n"
        "VerValence = 0;\n"
        "---\n"
        "// loop: Tri  (each triangle counts itself at its vertices)\n"
        "for (int c = 0; c < 3; ++c) atomicAdd(Valence_[TriVer[c]], 1);\n",
        "Valence", "surface"}},
      {"diagonals (user link)",
       {"// field: Diag float Edg\n"
        "// loop: Edg  (EdgOpp: the lab's link table, the 2 vertices facing each edge — GmlNewLinkData)\n"
        "EdgDiag = EdgOpp[1] != 0xffffffffu ? distance(EdgOppCrd[0], EdgOppCrd[1]) / distance(EdgVerCrd[0], "
        "EdgVerCrd[1]) : 0.0;\n"
        "---\n"
        "// field: Ratio float Ver\n"
        "// loop: Ver  (the largest diagonal / edge ratio around each vertex)\n"
        "float r = 0.0;\n"
        "for (uint k = 0u; k < VerEdgDeg; ++k) r = max(r, VerEdgDiag[k]);\n"
        "VerRatio = r;\n",
        "Ratio", "surface"}},
      {"scatter/gather pair",
       {"// loop: Tri  (seed §2.5, scatter: each triangle's barycentre into a temporary field)\n"
        "TriTmp.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
        "---\n"
        "// loop: Ver  (gather: over the whole padded ball, whose empty slots read zero)\n"
        "vec4 s = vec4(0.0);\n"
        "for (uint i = 0u; i < VerTriDegMax; ++i) s += VerTriTmp[i];\n"
        "VerAvg = s / float(VerTriDeg);\n",
        "Avg", "surface"}},
      {"tetrahedra: volumes",
       {kTetVolumes + "---\n"
                      "// field: Dual float Ver\n"
                      "// loop: Ver  (a quarter of the ball's volume: the vertex's dual cell)\n"
                      "float v = 0.0;\n"
                      "for (uint k = 0u; k < VerTetDeg; ++k) v += VerTetVol[k];\n"
                      "VerDual = 0.25 * v;\n",
        "Vol", "tetrahedra"}},
      {"tetrahedra: padded ball",
       {kTetVolumes + "---\n"
                      "// field: Dual float Ver\n"
                      "// loop: Ver  (the dual volume as in \"tetrahedra: volumes\", over the padded ball: "
                      "VerTetDegMax slots, a\n"
                      "//            constant, the empty ones reading 0; GMlib manual §2.4: faster than a loop whose "
                      "length varies)\n"
                      "float v = 0.0;\n"
                      "for (uint k = 0u; k < VerTetDegMax; ++k) v += VerTetVol[k];\n"
                      "VerDual = 0.25 * v;\n",
        "Vol", "tetrahedra"}},
      {"tetrahedra: volumes (colouring)",
       {"// field: Dual float Ver\n"
        "// loop: Ver  (clear)\n"
        "VerDual = 0.0;\n"
        "---\n"
        "// field: Vol float Tet\n"
        "// loop: Tet  (signed volume, a quarter of it added into each vertex colour by colour: no two tetrahedra\n"
        "//            of a colour share a vertex; GMlib manual §2.5's sub-blocks)\n"
        "// write: colouring\n"
        "TetVol = dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], TetVerCrd[3] - TetVerCrd[0])) / "
        "6.0;\n"
        "for (int c = 0; c < 4; ++c) Dual_[TetVer[c]] += 0.25 * TetVol;\n",
        "Dual", "tetrahedra"}},
      {"tetrahedra: shells",
       {"// field: Len float Edg\n"
        "// field: Around int Edg\n"
        "// loop: Edg  (edge length, and the tetrahedra in its shell)\n"
        "EdgLen = distance(EdgVerCrd[0], EdgVerCrd[1]);\n"
        "EdgAround = int(EdgTetDeg);\n"
        "---\n"
        "// field: Longest float Tet\n"
        "// loop: Tet  (down to the edges)\n"
        "float l = 0.0;\n"
        "for (int e = 0; e < 6; ++e) l = max(l, TetEdgLen[e]);\n"
        "TetLongest = l;\n",
        "Longest", "tetrahedra"}},
      {"drift (direct)",
       {"// field: Vitesse float Ver\n"
        "// field: Direction vec4 Ver\n"
        "// loop: Ver  (seed §2.1: a speed and a direction a vertex, from a hash of its index)\n"
        "uint h = i * 2654435761u;\n"
        "VerVitesse = 0.002 * float(h >> 16) / 65536.0;\n"
        "VerDirection = vec4(normalize(vec3(float(h & 255u), float((h >> 8) & 255u), float(h >> 24)) - 127.5), 0.0);\n"
        "---\n"
        "// loop: Ver  (§2.3, a direct kernel: the seed's one line)\n"
        "VerCrd = VerCrd + VerVitesse * VerDirection.xyz;\n",
        "Vitesse", "surface"}},
      {"GMlib: gpu bandwidth",
       {"// field: Dat vec4 Ver\n"
        "// field: Data vec4 Tet\n"
        "// loop: Ver  (GMlib's sample GpuBandwidth, direct_vertices.cl: VerDat = VerCrd, one vertex each)\n"
        "VerDat = vec4(VerCrd, 0.0);\n"
        "---\n"
        "// loop: Tet  (direct_tets.cl: the tetrahedron's four vertex indices as floats; its TetDat is TetData here)\n"
        "TetData = vec4(TetVer);\n"
        "---\n"
        "// loop: Tet  (indirect_tets.cl: the sum of its four vertices' coordinates)\n"
        "TetData = vec4(TetVerCrd[0] + TetVerCrd[1] + TetVerCrd[2] + TetVerCrd[3], 0.0);\n"
        "---\n"
        "// loop: Ver  (vertices_ball.cl: the sum over the padded ball, whose empty slots read zero)\n"
        "vec4 d = vec4(0.0);\n"
        "for (uint k = 0u; k < VerTetDegMax; ++k) d += VerTetData[k];\n"
        "VerDat = d;\n",
        "Dat", "tetrahedra"}},
      {"GMlib: mesh quality",
       {"// field: Qal float Tet\n"
        "// loop: Tet  (GMlib's sample MeshQuality, compute_quality.cl, as printed: its surface sums the first two\n"
        "//            faces, the lines after them being statements of their own after a ';')\n" +
            kGmlibQuality,
        "Qal", "tetrahedra"}},
      {"GMlib: node smoothing",
       {"// field: OptCrd vec4[4] Tet\n"
        "// field: Res float Ver\n"
        "// field: Qal float Tet\n"
        "// loop: Tet  (GMlib's sample NodeSmoothing, scatter.cl: for each corner, the point that makes the\n"
        "//            tetrahedron regular over the opposite face: its centre, raised along its normal by\n"
        "//            0.816496 times its longest edge)\n"
        "vec3 e0 = TetVerCrd[0] - TetVerCrd[1], e1 = TetVerCrd[0] - TetVerCrd[2], e2 = TetVerCrd[0] - TetVerCrd[3];\n"
        "vec3 e3 = TetVerCrd[1] - TetVerCrd[2], e4 = TetVerCrd[1] - TetVerCrd[3], e5 = TetVerCrd[2] - TetVerCrd[3];\n"
        "float l0 = dot(e0, e0), l1 = dot(e1, e1), l2 = dot(e2, e2), l3 = dot(e3, e3), l4 = dot(e4, e4), l5 = dot(e5, "
        "e5);\n"
        "vec3 c = (TetVerCrd[1] + TetVerCrd[2] + TetVerCrd[3]) / 3.0;\n"
        "TetOptCrd[0] = vec4(c + normalize(cross(e4, e5)) * 0.816496 * sqrt(max(max(l3, l4), l5)), 0.0);\n"
        "c = (TetVerCrd[0] + TetVerCrd[2] + TetVerCrd[3]) / 3.0;\n"
        "TetOptCrd[1] = vec4(c + normalize(cross(e5, e2)) * 0.816496 * sqrt(max(max(l1, l2), l5)), 0.0);\n"
        "c = (TetVerCrd[1] + TetVerCrd[0] + TetVerCrd[3]) / 3.0;\n"
        "TetOptCrd[2] = vec4(c + normalize(cross(e2, e4)) * 0.816496 * sqrt(max(max(l0, l2), l4)), 0.0);\n"
        "c = (TetVerCrd[1] + TetVerCrd[2] + TetVerCrd[0]) / 3.0;\n"
        "TetOptCrd[3] = vec4(c + normalize(cross(e3, e1)) * 0.816496 * sqrt(max(max(l0, l1), l3)), 0.0);\n"
        "---\n"
        "// loop: Ver  (gather.cl: a fifth of the way to the mean of the points its tetrahedra propose for it,\n"
        "//            each the one at its own corner, VerTetVoy; Res the square of the move)\n"
        "vec4 crd = vec4(0.0);\n"
        "for (uint k = 0u; k < VerTetDegMax; ++k) crd += VerTetOptCrd[k][VerTetVoy[k]];\n"
        "vec3 moved = mix(VerCrd, crd.xyz / float(VerTetDeg), 0.2);\n"
        "VerRes = dot(VerCrd - moved, VerCrd - moved);\n"
        "VerCrd = moved;\n"
        "---\n"
        "// loop: Tet  (quality.cl: MeshQuality's kernel again, after the move)\n" +
            kGmlibQuality,
        "Qal", "tetrahedra"}},
      {"hexahedra: neighbours",
       {"// field: Height float Hex\n"
        "// loop: Hex  (the centre's height, then averaged with the neighbours across the faces)\n"
        "float z = 0.0;\n"
        "for (int c = 0; c < 8; ++c) z += HexVerCrd[c].z;\n"
        "HexHeight = z / 8.0;\n"
        "---\n"
        "// field: Smooth float Hex\n"
        "// loop: Hex\n"
        "float s = HexHeight, n = 1.0;\n"
        "for (int f = 0; f < 6; ++f) if (HexHex[f] != 0xffffffffu) { s += HexHexHeight[f]; n += 1.0; }\n"
        "HexSmooth = s / n;\n",
        "Smooth", "hexahedra"}}};
  return kExamples;
}

std::vector<std::string> example_names() {
  std::vector<std::string> n;
  for (auto& [k, v] : mesh_examples()) n.push_back(k);
  return n;
}

Kind kind_of(const std::string& s) {
  for (Kind k : {Kind::Vertices, Kind::Edges, Kind::Triangles, Kind::Quadrilaterals, Kind::Tetrahedra, Kind::Pyramids,
                 Kind::Prisms, Kind::Hexahedra})
    if (s == short_name(k)) return k;
  throw std::invalid_argument("no entity " + s);
}

std::vector<Section> split(const std::string& text) {
  std::vector<Section> out(1);
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line == "---") {
      if (out.size() == kMaxSections)
        throw KernelError("line " + std::to_string(n) + ": more than " + std::to_string(kMaxSections) +
                          " sections (each '---' starts one, a shader of its own)");
      out.push_back({});
      out.back().first_line = n + 1;
      continue;
    }
    if (auto k = words::loop_line(line); !k.empty()) {
      out.back().loop = kind_of(std::string(k));
    } else {
      std::string squeezed;
      for (char c : line)
        if (c != ' ' && c != '\t') squeezed += c;
      if (squeezed.rfind("//loop:", 0) == 0)
        throw KernelError("line " + std::to_string(n) + ": '" + line +
                          "': a section loops over Ver, Edg, Tri, Qua, Tet, Pyr, Pri or Hex");
    }
    if (line.find("write:") != std::string::npos && words::write_line(line) != std::string_view{}) {
      std::string_view w = words::write_line(line);
      if (w != "colouring" && w != "coloring")
        throw KernelError("line " + std::to_string(n) + ": '// write: " + std::string(w) +
                          "': the one write strategy a section can ask for is colouring (atomics and the "
                          "scatter/gather pair are written in the body)");
      out.back().by_colour = true;
    }
    out.back().body += line + "\n";
  }
  return out;
}

std::map<std::string, FieldUse> fields_named(const std::string& text, const std::set<std::string>& links) {
  std::map<std::string, FieldUse> f;
  for (auto& d : words::field_declarations(text)) f[d.name] = {kind_of(d.kind), parse_field_type(d.type)};
  // Kind [Kind] Name, a whole identifier: TriArea, VerTriBar
  for (auto& w : words::identifiers(text)) {
    std::string_view a = words::short_kind_at(w.text), rest = w.text.substr(a.size()), b;
    if (a.empty()) continue;
    if (auto k = words::short_kind_at(rest); !k.empty() && words::is_capitalised_name(rest.substr(3))) b = k;
    std::string name(rest.substr(b.size()));
    if (!words::is_capitalised_name(name)) continue;
    if (name == "Crd" || name == "Deg" || name == "DegMax" || name == "Ref" || name == "Voy" || f.count(name) ||
        !words::short_kind_at(name).empty())  // TriVer, HexHex: links, not fields
      continue;
    if (std::any_of(links.begin(), links.end(), [&](auto& l) { return name.rfind(l, 0) == 0; })) continue;
    f[name] = {kind_of(std::string(b.empty() ? a : b)), std::nullopt};
  }
  return f;
}

std::vector<uint32_t> facing_vertices(const GpuMesh& g) {
  const Elements& t = g.elements(Kind::Triangles);
  const auto& te = g.edges().edges_of.at(Kind::Triangles);
  std::vector<uint32_t> opp(2 * g.count(Kind::Edges), UINT32_MAX);
  for (size_t f = 0; f < t.count(); ++f)
    for (int c = 0; c < 3; ++c) {
      uint32_t e = te[3 * f + c];
      (opp[2 * e] == UINT32_MAX ? opp[2 * e] : opp[2 * e + 1]) = t.v[3 * f + (c + 2) % 3];
    }
  return opp;
}

std::set<Kind> kinds_named(const std::string& text) {
  std::set<Kind> kinds;
  for (auto& s : split(text))
    if (s.body.find_first_not_of(" \n\t") != std::string::npos) kinds.insert(s.loop);
  std::string code = words::strip_comments(text);  // outlives the views into it
  for (auto& w : words::identifiers(code))
    for (std::string_view rest = w.text; !words::short_kind_at(rest).empty(); rest = rest.substr(3))
      kinds.insert(kind_of(std::string(words::short_kind_at(rest))));
  return kinds;
}

std::vector<std::unique_ptr<GpuMesh::Kernel>> compile_text(GpuMesh& g, const std::string& printed, Misprints policy,
                                                           std::vector<Misprint>* misprints, LoadTimes* times) {
  std::string text;
  try {
    text = io::normalized_user_text(printed);  // what the compiler reads is what is screened (user_text.h)
  } catch (const io::TextRefused& e) {
    throw KernelError(e.what());
  }
  if (misprints) misprints->clear();
  size_t sections = 1;  // counted before any is translated (the dialect's lines are checked after)
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) sections += l == "---";
  if (sections > kMaxSections)
    throw KernelError("more than " + std::to_string(kMaxSections) +
                      " sections (each '---' starts one, a shader of its own)");
  if (is_gmlib(text)) {  // the manual's names and OpenCL's spellings, line for line
    GmlibText t = from_gmlib(text, policy);
    text = std::move(t.glsl);
    if (misprints) *misprints = std::move(t.misprints);
  }
  std::string missing, present;
  for (Kind k : kinds_named(text))
    if (!g.count(k)) missing += (missing.empty() ? "" : ", ") + std::string(kind_name(k));
  for (Kind k : {Kind::Edges, Kind::Triangles, Kind::Quadrilaterals, Kind::Tetrahedra, Kind::Pyramids, Kind::Prisms,
                 Kind::Hexahedra})
    if (g.count(k)) present += ", " + std::string(kind_name(k));
  if (!missing.empty())
    throw KernelError("these kernels need " + missing + "; this mesh has none (it has Vertices" + present +
                      "): choose a mesh that fits, or an example for this mesh");
  std::set<std::string> links;
  for (auto& l : g.link_names()) links.insert(l);
  std::vector<Parameter> new_params, old_params = g.parameters();
  try {
    std::vector<Parameter> params;
    for (auto& d : words::param_declarations(text)) {
      Parameter p{d.name, {}, {}};
      try {
        p.type = parse_field_type(d.type);
        std::istringstream in(d.values);
        std::string v;
        while (std::getline(in, v, ',')) {
          if (v.find_first_not_of(" \t\r") == std::string::npos) continue;
          size_t used = 0;
          p.values.push_back(std::stod(v, &used));
          if (v.find_first_not_of(" \t\r", used) != std::string::npos) throw std::invalid_argument(v);
        }
        if (p.values.size() > p.type.components) throw std::invalid_argument("too many values");
      } catch (const std::exception& e) {
        throw std::invalid_argument("line " + std::to_string(d.line) + ": '// param: " + d.name + " " + d.type +
                                    (d.values.empty() ? "" : " =" + d.values) +
                                    "': a name, a type (float, vec2..4, int, ivec2..4, double, dvec2..4) and up to "
                                    "that many values");
      }
      params.push_back(std::move(p));
    }
    for (auto& p : params) p.values.resize(p.type.components, p.values.empty() ? 0.0 : p.values.back());
    new_params = std::move(params);
    for (auto& [n, f] : fields_named(text, links))
      if (!g.has_field(n) || g.field_at(n) != f.at || (f.type && !(g.field_type(n) == *f.type)))
        g.add_field(n, f.at, f.type.value_or(FieldType{}));
  } catch (const std::invalid_argument& e) {
    throw KernelError(e.what());
  }
  // The new structure while compiling (the kernels are written for its layout, from the text's
  // values); if a section does not compile, the old one comes back with the user's values.
  try {
    g.set_parameters(new_params);
  } catch (const std::invalid_argument& e) {
    throw KernelError(e.what());
  }
  std::vector<std::unique_ptr<GpuMesh::Kernel>> out;
  auto in_section = [](int first_line, const KernelError& e) {
    return KernelError("section starting at line " + std::to_string(first_line) +
                       (std::strchr(e.what(), '\n') ? ":\n" : ": ") + e.what());
  };
  try {
    // The shaders written one section after another (they build the balls and links they read),
    // then compiled on a thread each (GLSL to SPIR-V and a pipeline: most of the time of a mesh's
    // opening that is not the mesh's); the first section in the text that fails is the one said.
    std::vector<std::future<std::unique_ptr<GpuMesh::Kernel>>> finished;
    std::vector<int> first_lines;
    std::optional<KernelError> unprepared;
    for (auto& s : split(text)) {
      if (s.body.find_first_not_of(" \n\t") == std::string::npos) continue;
      GpuMesh::Prepared prepared;
      try {
        prepared = g.prepare(s.loop, s.body, s.first_line, s.by_colour);
      } catch (const KernelError& e) {
        unprepared = in_section(s.first_line, e);
        break;
      }
      first_lines.push_back(s.first_line);
      finished.push_back(
          std::async(std::launch::async, [&g, p = std::move(prepared)]() mutable { return g.finish(std::move(p)); }));
    }
    if (times) times->lap("links and balls");
    for (size_t i = 0; i < finished.size(); ++i) try {
        out.push_back(finished[i].get());
      } catch (const KernelError& e) {
        throw in_section(first_lines[i], e);
      }
    if (unprepared) throw *unprepared;
    if (out.empty()) throw KernelError("no kernel to run");
    if (times) times->lap("kernels");
  } catch (...) {
    g.set_parameters(old_params);
    throw;
  }
  return out;
}

}  // namespace mesh
