#include "compute/io/npy.h"
#include "compute/io/output.h"

#include "compute/io/input.h"

#include <algorithm>
#include <cstdint>
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
  std::string out("\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  out += header;
  out.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
  io::write_file(path, out);
}

std::vector<float> read_npy(const std::filesystem::path& path, std::vector<size_t>* shape) {
  return parse_npy(io::read_input(path), path.string(), shape);
}

std::vector<float> parse_npy(const std::string& bytes, const std::string& name, std::vector<size_t>* shape) {
  auto fail = [&](const std::string& what) { throw std::runtime_error(name + ": " + what); };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY\x01\x00", 8) != 0) fail("not a version 1.0 .npy file");
  size_t len = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
  if (10 + len > bytes.size()) fail("the header is longer than the file");
  std::string header = bytes.substr(10, len);
  if (header.find("'descr': '<f4'") == std::string::npos || header.find("'fortran_order': False") == std::string::npos)
    fail("only little-endian float32 C-order arrays are read");
  auto open = header.find("'shape': (");
  auto close = open == std::string::npos ? open : header.find(')', open);
  if (close == std::string::npos) fail("the header has no shape");
  std::vector<size_t> dims;
  uint64_t count = 1, available = (bytes.size() - 10 - len) / sizeof(float);
  std::string list = header.substr(open + 10, close - open - 10);
  for (size_t pos = 0; pos <= list.size();) {
    size_t comma = std::min(list.find(',', pos), list.size());
    std::string item = list.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) {
      if (item.size() > 18 || item.find_first_not_of("0123456789") != std::string::npos)
        fail("shape entry '" + item + "' is not a size");
      dims.push_back(std::stoull(item));
      if (dims.back() && count > available / dims.back())
        fail("its shape needs more floats than the file's " + std::to_string(available));
      count *= dims.back();
    }
    pos = comma + 1;
  }
  if (dims.empty()) fail("a 0-dimensional array (a scalar), not an array");
  if (count > available)
    fail("its shape needs " + std::to_string(count) + " floats, the file holds " + std::to_string(available));
  std::vector<float> data(count);
  if (count) std::memcpy(data.data(), bytes.data() + 10 + len, count * sizeof(float));
  if (shape) *shape = dims;
  return data;
}
