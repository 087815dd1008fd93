// Kernels as the mesh lab's editor holds them: sections separated by a line "---", each
// starting with "// loop: Tri" (or Ver, Edg, Qua, Tet, Pyr, Pri, Hex); "// field: Name type
// Kind" declares a field (float, vec2, int, ivec3, double, ...); a field only named, by the
// naming rule, is a vec4 where the name puts it; "// write: colouring" runs an element loop
// colour by colour (colouring.h). And the lab's examples from the seed.
#pragma once
#include "compute/mesh/gmlib_dialect.h"
#include "compute/mesh/gpu_mesh.h"

#include <optional>
#include <set>

namespace mesh {

class LoadTimes;

struct Example {
  std::string text, colour;  // the kernels, the field to colour by
  std::string mesh;          // the generated mesh it is meant for: surface, tetrahedra, hexahedra
};
const std::map<std::string, Example>& mesh_examples();
std::vector<std::string> example_names();
Kind kind_of(const std::string& short_name);  // "Tri" -> Triangles

struct Section {
  Kind loop = Kind::Triangles;
  std::string body;
  int first_line = 1;      // in the whole text
  bool by_colour = false;  // a line "// write: colouring": launched colour by colour (colouring.h)
};
// Throws KernelError on a "// write:" line that does not say colouring, and past kMaxSections.
constexpr size_t kMaxSections = 64;
std::vector<Section> split(const std::string& text);

struct FieldUse {
  Kind at;
  std::optional<FieldType> type;  // declared
};
// The fields a text needs (names that start with a link's name are not fields).
std::map<std::string, FieldUse> fields_named(const std::string& text, const std::set<std::string>& links);

// Creates the fields the text needs (a declared one that exists with another type is made
// again; a named one that exists where the name puts it is kept) and compiles every
// section; throws KernelError naming the section's first line.
// Refuses, before compiling, a text that loops over or reaches entities the mesh has none of.
// A text with the line "// dialect: gmlib" is the manual's, read through gmlib_dialect.h's
// aliases; its misprints are refused or fixed as `policy` says, and listed in `misprints`.
// `times`: told the phases "links and balls" (the sections' tables, one after another) and
// "kernels" (what their compilation, a thread each, took beyond that).
std::vector<std::unique_ptr<GpuMesh::Kernel>> compile_text(GpuMesh& g, const std::string& text,
                                                           Misprints policy = Misprints::Fix,
                                                           std::vector<Misprint>* misprints = nullptr,
                                                           LoadTimes* times = nullptr);
// The entity kinds a text loops over or names (TriArea: Triangles; VerTetDeg: Vertices and
// Tetrahedra), comments aside.
std::set<Kind> kinds_named(const std::string& text);

// The lab's own GmlNewLinkData table "Opp" (edges to vertices, 2 a line): the vertices
// facing each edge in its (up to two) triangles.
std::vector<uint32_t> facing_vertices(const GpuMesh& g);

}  // namespace mesh
