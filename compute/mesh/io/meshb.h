// The Gamma Mesh Format of libMeshb (seed 004's GmlImportMesh reads it): ASCII .mesh /
// .sol and binary .meshb / .solb, versions 1 (32-bit reals), 2 (64-bit reals), 3 (64-bit
// file offsets) and 4 (64-bit integers), either byte order. Vertices, Edges, Triangles,
// Quadrilaterals, Tetrahedra, Pyramids, Prisms, Hexahedra and solutions at vertices and at
// elements; other keywords are skipped. Indices are 0-based here, 1-based in the files.
// Every malformed file throws std::runtime_error "FILE: line N: ..." (ASCII) or
// "FILE: offset N: ..." (binary).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mesh {

enum class Kind { Vertices, Edges, Triangles, Quadrilaterals, Tetrahedra, Pyramids, Prisms, Hexahedra };
constexpr int kGmfDimension = 3, kGmfEnd = 54;    // keyword codes the reader and the writer share
bool gmf_binary(const std::filesystem::path& p);  // .meshb / .solb: the binary format
const char* kind_name(Kind k);                    // the GMF keyword, "Triangles"
uint32_t nodes_of(Kind k);                        // vertices an element
int keyword_of(Kind k);                           // GmfVertices = 4 ...
int solution_keyword_of(Kind k);                  // GmfSolAtVertices = 62 ...

struct Elements {
  Kind kind = Kind::Triangles;
  std::vector<uint32_t> v;  // nodes_of(kind) a line
  std::vector<int64_t> ref;
  size_t count() const { return ref.size(); }
};

struct Mesh {
  int dim = 3;
  std::vector<double> xyz;  // dim a vertex
  std::vector<int64_t> vref;
  std::vector<Elements> elements;  // one entry a kind present, in keyword order
  size_t vertices() const { return vref.size(); }
  const Elements* find(Kind k) const;
};

// Field types as GMF numbers them: 1 scalar, 2 vector (dim), 3 symmetric matrix, 4 matrix.
struct Solution {
  Kind at = Kind::Vertices;
  std::vector<int> types;
  std::vector<double> values;  // width() a line
  size_t width(int dim) const;
  size_t count(int dim) const { return width(dim) ? values.size() / width(dim) : 0; }
};
struct Solutions {
  int dim = 3;
  std::vector<Solution> fields;
};

// Binary if the extension ends in 'b' (.meshb, .solb). version: 1..4 (binary), 1 or 2 (ASCII
// precision written: 8 or 17 significant digits). A mesh needs vertices, coordinates within
// +-1e9 and elements with distinct vertices; solution values must fit a float. Counts are
// checked against the bytes left in the file before anything is allocated for them.
Mesh read_mesh(const std::filesystem::path& path);
Mesh parse_mesh(const std::string& data, const std::string& name, bool binary);
Solutions parse_solution(const std::string& data, const std::string& name, bool binary);
void write_mesh(const std::filesystem::path& path, const Mesh& m, int version = 2);
Solutions read_solution(const std::filesystem::path& path);
void write_solution(const std::filesystem::path& path, const Solutions& s, int version = 2);

}  // namespace mesh
