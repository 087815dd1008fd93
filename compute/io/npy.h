// NumPy .npy (format 1.0) writer and reader for float32 arrays: --dump, its tests, and the
// machining lab's stock.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

void write_npy(const std::filesystem::path& path, const std::vector<float>& data, const std::vector<size_t>& shape);
// Reads a little-endian float32 C-order array; throws std::runtime_error "FILE: ..." on
// anything else, and on a shape the file's bytes cannot hold (checked before allocating).
std::vector<float> read_npy(const std::filesystem::path& path, std::vector<size_t>* shape = nullptr);
std::vector<float> parse_npy(const std::string& bytes, const std::string& name, std::vector<size_t>* shape = nullptr);
