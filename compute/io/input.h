// The user's files, read in one place: what is not a regular file (a FIFO blocks forever,
// /dev/zero never ends, a directory) and a file past the size limit are refused before a
// byte is read; and the counts a file's header claims are checked against the bytes it holds
// before anything is allocated for them.
#pragma once
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace io {

constexpr uint64_t kMaxInputBytes = uint64_t(1) << 31;  // 2 GiB

// The whole file. Throws std::runtime_error "FILE: what is wrong".
std::string read_input(const std::filesystem::path& path, uint64_t max_bytes = kMaxInputBytes);

// Can `count` items of at least `bytes_each` bytes lie in `available` bytes? (no overflow)
constexpr bool fits(uint64_t count, uint64_t bytes_each, uint64_t available) {
  return bytes_each == 0 || count <= available / bytes_each;
}

}  // namespace io
