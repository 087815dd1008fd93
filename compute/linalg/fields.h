// Starting fields on a width x height grid (row-major), shared by the labs that need one:
// the diffusion lab's initial heat and CG's right-hand side in the linear algebra lab.
//   spots: five hot discs (value 1) at random places; gaussian: one centred bump;
//   random: uniform in [0, 1]; zero.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace linalg {

const std::vector<std::string>& grid_field_names();
std::vector<float> grid_field(uint32_t width, uint32_t height, const std::string& preset, uint32_t seed = 1);

}  // namespace linalg
