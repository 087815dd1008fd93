// Sample inputs under assets/ (found beside the executable, via VKLAB_ASSET_DIR, or in the
// source tree), and the small image format the labs read from there.
#pragma once
#include <cstdint>
#include <filesystem>
#include <vector>

std::filesystem::path find_asset(const std::string& relative);  // throws if absent

struct GrayImage {
  uint32_t width = 0, height = 0;
  std::vector<float> values;  // row-major, 0..1
};
// Netpbm graymap, P2 (text) or P5 (binary, 8 or 16 bits). A malformed file throws
// std::runtime_error naming the file and what is wrong.
GrayImage read_pgm(const std::filesystem::path& path);
