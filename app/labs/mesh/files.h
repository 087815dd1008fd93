// The mesh lab's files: a solution file read as a field, the mesh and its fields saved in
// libMeshb formats, and --dump's arrays, files and reductions (the lab: app/labs/mesh/mesh_lab.cpp).
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>

namespace mesh {

// The first field of a .sol/.solb file with a line an entity of the mesh (at most 4 columns
// kept), as a double field where the device has fp64; throws std::invalid_argument saying why not.
struct SolField {
  Kind at = Kind::Vertices;
  FieldType type;
  std::vector<double> values;
};
SolField read_sol_field(const GpuMesh& g, const std::string& path);

// STEM.meshb and, with fields, STEM.solb (the mesh as on the GPU); returns the solution's columns.
std::vector<std::string> save_mesh(const GpuMesh& g, const std::filesystem::path& stem);

// --dump: VerCrd and every field as .npy, the mesh (.meshb, .solb, .vtu a kind), each kernel's
// generated shaders; returns {arrays, files, reductions_x, counts} describing them.
nlohmann::json dump_mesh(GpuMesh& g, const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels,
                         const std::filesystem::path& dir);

}  // namespace mesh
