// Netpbm graymaps, P2 (text) or P5 (binary, 8 or 16 bits): the diffusion lab's pictures.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

struct GrayImage {
  uint32_t width = 0, height = 0;
  std::vector<float> values;  // row-major, 0..1
};
// A malformed file, or a header that claims more pixels than the file holds, throws
// std::runtime_error naming the file and what is wrong (before the pixels are allocated).
GrayImage read_pgm(const std::filesystem::path& path);
GrayImage parse_pgm(const std::string& bytes, const std::string& name);
