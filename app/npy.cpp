#include "npy.h"

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

void write_npy(const std::filesystem::path& path, const std::vector<float>& data, const std::vector<size_t>& shape) {
  size_t count = 1;
  std::string dims;
  for (size_t d : shape) {
    count *= d;
    dims += std::to_string(d) + ", ";
  }
  if (count != data.size()) throw std::invalid_argument("write_npy: shape does not match the data");
  if (shape.size() > 1) dims.pop_back(), dims.pop_back();
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  size_t total = 10 + header.size() + 1;  // magic(6) version(2) length(2) header '\n'
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  out.write(reinterpret_cast<const char*>(&len), 2);
  out << header;
  out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * sizeof(float)));
  if (!out) throw std::runtime_error("write failed: " + path.string());
}

std::vector<float> read_npy(const std::filesystem::path& path, std::vector<size_t>* shape) {
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  uint16_t len = 0;
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY\x01\x00", 8) != 0 ||
      !in.read(reinterpret_cast<char*>(&len), 2))
    throw std::runtime_error(path.string() + " is not a version 1.0 .npy file");
  std::string header(len, ' ');
  in.read(header.data(), len);
  if (header.find("'descr': '<f4'") == std::string::npos || header.find("'fortran_order': False") == std::string::npos)
    throw std::runtime_error(path.string() + ": only little-endian float32 C-order arrays are read");
  auto open = header.find("'shape': (");
  auto close = header.find(')', open);
  std::vector<size_t> dims;
  size_t count = 1;
  std::string list = header.substr(open + 10, close - open - 10);
  for (size_t pos = 0; pos < list.size();) {
    size_t comma = list.find(',', pos);
    std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.find_first_not_of(' ') != std::string::npos) {
      dims.push_back(std::stoul(item));
      count *= dims.back();
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::vector<float> data(count);
  if (!in.read(reinterpret_cast<char*>(data.data()), std::streamsize(count * sizeof(float))))
    throw std::runtime_error(path.string() + " is shorter than its shape says");
  if (shape) *shape = dims;
  return data;
}
