// The libMeshb GMF writer: .mesh/.sol in ASCII (versions 1, 2) and .meshb/.solb in binary
// (versions 1 to 4), what the reader in meshb.cpp reads back exactly.
#include "compute/io/output.h"
#include "compute/mesh/io/meshb.h"

#include <fstream>
#include <stdexcept>

namespace mesh {

namespace {

// Opens the file and writes the header and the dimension; close() writes End.
struct Writer {
  Writer(const std::filesystem::path& p, int version, int dim)
      : out(p),
        f(out.temporary(), gmf_binary(p) ? std::ios::binary : std::ios::out),
        binary(gmf_binary(p)),
        version(version),
        path(p) {
    if (version < 1 || version > (binary ? 4 : 2)) throw std::invalid_argument("GMF: unsupported version to write");
    if (!f) throw std::runtime_error(p.string() + ": cannot write");
    if (binary) {
      put<int32_t>(1);
      put<int32_t>(version);
      begin_keyword(kGmfDimension);
      put<int32_t>(dim);
      end_keyword();
    } else {
      f.precision(version == 1 ? 9 : 17);
      f << "MeshVersionFormatted " << version << "\n\nDimension " << dim << "\n";
    }
  }
  void close() {
    if (binary) {
      put<int32_t>(kGmfEnd);
      if (version >= 3)
        put<int64_t>(0);
      else
        put<int32_t>(0);
    } else {
      f << "\nEnd\n";
    }
    f.close();
    if (!f) throw std::runtime_error(path.string() + ": cannot write");
    out.commit();
  }
  template <class T>
  void put(T v) {
    f.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void integer(int64_t v) {
    if (version >= 4)
      put<int64_t>(v);
    else
      put<int32_t>(int32_t(v));
  }
  void real(double v) {
    if (version == 1)
      put<float>(float(v));
    else
      put<double>(v);
  }
  // A keyword's header with its next-keyword position filled in by end_keyword().
  void begin_keyword(int kwd) {
    put<int32_t>(kwd);
    next_at = f.tellp();
    if (version >= 3)
      put<int64_t>(0);
    else
      put<int32_t>(0);
  }
  void end_keyword() {
    auto here = f.tellp();
    f.seekp(next_at);
    if (version >= 3)
      put<int64_t>(int64_t(here));
    else
      put<int32_t>(int32_t(here));
    f.seekp(here);
  }
  io::OutputFile out;  // the file whole or not at all (output.h)
  std::ofstream f;
  bool binary;
  int version;
  std::filesystem::path path;
  std::streampos next_at{};
};

}  // namespace

void write_mesh(const std::filesystem::path& path, const Mesh& m, int version) {
  Writer w(path, version, m.dim);
  if (w.binary) {
    w.begin_keyword(keyword_of(Kind::Vertices));
    w.integer(int64_t(m.vertices()));
    for (size_t i = 0; i < m.vertices(); ++i) {
      for (int c = 0; c < m.dim; ++c) w.real(m.xyz[i * m.dim + c]);
      w.integer(m.vref[i]);
    }
    w.end_keyword();
    for (auto& e : m.elements) {
      w.begin_keyword(keyword_of(e.kind));
      w.integer(int64_t(e.count()));
      uint32_t nodes = nodes_of(e.kind);
      for (size_t l = 0; l < e.count(); ++l) {
        for (uint32_t c = 0; c < nodes; ++c) w.integer(int64_t(e.v[l * nodes + c]) + 1);
        w.integer(e.ref[l]);
      }
      w.end_keyword();
    }
  } else {
    w.f << "\nVertices\n" << m.vertices() << "\n";
    for (size_t i = 0; i < m.vertices(); ++i) {
      for (int c = 0; c < m.dim; ++c) w.f << m.xyz[i * m.dim + c] << ' ';
      w.f << m.vref[i] << '\n';
    }
    for (auto& e : m.elements) {
      w.f << '\n' << kind_name(e.kind) << '\n' << e.count() << '\n';
      uint32_t nodes = nodes_of(e.kind);
      for (size_t l = 0; l < e.count(); ++l) {
        for (uint32_t c = 0; c < nodes; ++c) w.f << e.v[l * nodes + c] + 1 << ' ';
        w.f << e.ref[l] << '\n';
      }
    }
  }
  w.close();
}

void write_solution(const std::filesystem::path& path, const Solutions& s, int version) {
  Writer w(path, version, s.dim);
  if (w.binary) {
    for (auto& f : s.fields) {
      w.begin_keyword(solution_keyword_of(f.at));
      w.integer(int64_t(f.count(s.dim)));
      w.put<int32_t>(int32_t(f.types.size()));
      for (int t : f.types) w.put<int32_t>(t);
      for (double v : f.values) w.real(v);
      w.end_keyword();
    }
  } else {
    for (auto& f : s.fields) {
      w.f << "\nSolAt" << kind_name(f.at) << '\n' << f.count(s.dim) << '\n' << f.types.size();
      for (int t : f.types) w.f << ' ' << t;
      w.f << '\n';
      size_t width = f.width(s.dim);
      for (size_t i = 0; i < f.values.size(); ++i) w.f << f.values[i] << ((i + 1) % width ? ' ' : '\n');
    }
  }
  w.close();
}

}  // namespace mesh
