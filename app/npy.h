// NumPy .npy (format 1.0) writer and reader for float32 arrays, for --dump and its tests.
#pragma once
#include <cstddef>
#include <filesystem>
#include <vector>

void write_npy(const std::filesystem::path& path, const std::vector<float>& data, const std::vector<size_t>& shape);
// Reads a little-endian float32 C-order array; throws on anything else.
std::vector<float> read_npy(const std::filesystem::path& path, std::vector<size_t>* shape = nullptr);
