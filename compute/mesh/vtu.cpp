#include "compute/mesh/vtu.h"
#include "compute/io/output.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace mesh {

int vtk_cell_type(Kind k) {
  switch (k) {
    case Kind::Edges:
      return 3;
    case Kind::Triangles:
      return 5;
    case Kind::Quadrilaterals:
      return 9;
    case Kind::Tetrahedra:
      return 10;
    case Kind::Pyramids:
      return 14;
    case Kind::Prisms:
      return 13;
    case Kind::Hexahedra:
      return 12;
    default:
      throw std::invalid_argument("vertices are no VTK cell");
  }
}

namespace {

void write_kind(const std::filesystem::path& path, const GpuMesh& m, Kind k, const std::vector<float>& xyzw) {
  io::OutputFile out(path);
  std::ofstream f(out.temporary());
  f.precision(std::numeric_limits<float>::max_digits10);
  const Elements& e = m.elements(k);
  const uint32_t n = nodes_of(k);
  f << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
       "header_type=\"UInt64\">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\""
    << m.vertices() << "\" NumberOfCells=\"" << e.count() << "\">\n";
  f << "<Points>\n<DataArray type=\"Float32\" Name=\"VerCrd\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (size_t v = 0; v < m.vertices(); ++v)
    f << xyzw[4 * v] << ' ' << xyzw[4 * v + 1] << ' ' << xyzw[4 * v + 2] << '\n';
  f << "</DataArray>\n</Points>\n<Cells>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (size_t c = 0; c < e.count(); ++c)
    for (uint32_t j = 0; j < n; ++j) f << e.v[c * n + j] << (j + 1 < n ? ' ' : '\n');
  f << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (size_t c = 0; c < e.count(); ++c) f << (c + 1) * n << '\n';
  f << "</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  for (size_t c = 0; c < e.count(); ++c) f << vtk_cell_type(k) << '\n';
  f << "</DataArray>\n</Cells>\n";
  auto fields = [&](Kind at, const char* tag) {
    f << "<" << tag << ">\n";
    for (auto& name : m.field_names()) {
      if (m.field_at(name) != at || name == "VerCrd") continue;
      const uint32_t comps = field_values(m.field_type(name));
      auto v = m.download(name);
      f << "<DataArray type=\"Float32\" Name=\"" << name << "\" NumberOfComponents=\"" << comps
        << "\" format=\"ascii\">\n";
      for (size_t i = 0; i < v.size(); ++i) f << float(v[i]) << ((i + 1) % comps ? ' ' : '\n');
      f << "</DataArray>\n";
    }
    f << "</" << tag << ">\n";
  };
  fields(Kind::Vertices, "PointData");
  fields(k, "CellData");
  f << "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
  f.close();
  if (!f) throw std::runtime_error(path.string() + ": cannot write");
  out.commit();
}

}  // namespace

std::vector<std::string> write_vtu(const std::filesystem::path& prefix, const GpuMesh& m) {
  const auto xyzw = m.coordinates();
  std::vector<std::string> names;
  for (Kind k : m.kinds()) {
    if (k == Kind::Vertices || m.count(k) == 0) continue;
    auto path = prefix;
    path += std::string(".") + kind_name(k) + ".vtu";
    write_kind(path, m, k, xyzw);
    names.push_back(path.filename().string());
  }
  return names;
}

}  // namespace mesh
