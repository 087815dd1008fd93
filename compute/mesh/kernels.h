// GMlib-style kernels over a triangle mesh on the GPU (seed 004, §2.3–2.5): the user writes
// only the loop body in GLSL; the generator declares every buffer, loads the current
// entity's fields and the ones reached through the links, compiles at run time with
// shaderc (GmlCompileKernel) and stores the fields the body writes.
//
// Naming, as the seed's: loop short name + field name. In a triangle loop ("Tri"):
//   TriVer (uvec3, its vertices), TriVerCrd[3] (their coordinates), TriTri (uvec3, the
//   triangles across its edges v0v1, v1v2, v2v0; 0xffffffff on a boundary), and for every
//   field F at triangles: TriF (read/write) and TriTriF[3] (the neighbours', zero across a
//   boundary), at vertices: TriVerF[3] (read).
// In a vertex loop ("Ver"):
//   VerCrd (vec3, read/write), VerTriDeg (uint, the ball's size), and for every field F
//   at vertices: VerF (read/write), at triangles: VerTriF[k] for k < VerTriDeg (read, the ball).
// Fields are vec4 (a scalar is its .x). A field the body assigns is written back. A field's
// whole array is F_[] (scatter: with float atomics where the device has them,
// atomicAdd(F_[TriVer.x].x, a)).
#pragma once
#include "links.h"

#include "gpu/pipeline.h"

#include <map>
#include <memory>
#include <stdexcept>

namespace mesh {

struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;  // the compiler's messages, lines counted in the user's body
};

class GpuMesh {
 public:
  GpuMesh(gpu::Context& ctx, const Mesh& m);  // its triangles (and vertices)
  size_t vertices() const { return nv_; }
  size_t triangles() const { return nt_; }
  const Ball& ball() const { return ball_; }

  // A vec4 field at vertices or triangles, zero-filled; replaces one of the same name.
  void add_field(const std::string& name, Kind at);
  void upload(const std::string& name, const std::vector<float>& xyzw);
  std::vector<float> download(const std::string& name) const;  // 4 floats an entity
  std::vector<float> coordinates() const;                       // VerCrd, 4 floats a vertex
  void set_coordinates(const std::vector<float>& xyzw);
  bool has_field(const std::string& name) const { return fields_.count(name) != 0; }
  Kind field_at(const std::string& name) const { return fields_.at(name).at; }
  std::vector<std::string> field_names() const;
  // For drawing: VerCrd (vec4 a vertex), TriVer (uvec4: 3 vertices and the reference), a field.
  const gpu::Buffer& coordinate_buffer() const { return crd_; }
  const gpu::Buffer& triangle_buffer() const { return tri_ver_; }
  const gpu::Buffer& field_buffer(const std::string& name) const { return fields_.at(name).buffer; }

  // Generates, compiles and returns the kernel's pipeline; throws KernelError.
  struct Kernel {
    Kind loop = Kind::Triangles;
    std::string source;               // the generated shader (shown to the user on request)
    std::vector<std::string> writes;  // fields stored back
    gpu::Pipeline pipeline;
    uint32_t count = 0;
  };
  std::unique_ptr<Kernel> compile(Kind loop, const std::string& body) const;
  void record(VkCommandBuffer cmd, const Kernel& k) const;

  // GmlReduceVector: min, max, sum and L2 norm of one component of a field, on the GPU.
  struct Reduction {
    double min = 0, max = 0, sum = 0, l2 = 0;
  };
  Reduction reduce(const std::string& field, uint32_t component = 0);
  // GmlGetMemoryUsage: device bytes a buffer, by name (VerCrd, TriVer, VerTri, VerTriDeg, fields).
  std::vector<std::pair<std::string, size_t>> memory() const;
  // GmlGetMemoryTransfer: bytes moved between host and device so far, by buffer name.
  const std::map<std::string, std::pair<size_t, size_t>>& transfers() const { return transfers_; }  // up, down

 private:
  struct Field {
    Kind at;
    gpu::Buffer buffer;
  };
  std::vector<gpu::Bind> binds() const;
  gpu::Context& ctx_;
  size_t nv_ = 0, nt_ = 0;
  Ball ball_;
  gpu::Buffer crd_, tri_ver_, ver_tri_, ver_tri_deg_, tri_tri_, parts_;
  gpu::Pipeline reduce_;
  std::map<std::string, Field> fields_;
  mutable std::map<std::string, std::pair<size_t, size_t>> transfers_;
};

}  // namespace mesh
