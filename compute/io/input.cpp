#include "compute/io/input.h"

#include "compute/io/platform.h"

#include <cerrno>
#include <cstring>

#ifdef _WIN32
#include <fstream>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace io {

namespace {
std::string size_text(uint64_t b) {
  return b >= (uint64_t(4) << 20) ? std::to_string(b >> 20) + " MiB" : std::to_string((b + 1023) >> 10) + " KiB";
}
}  // namespace

#ifdef _WIN32
// Windows: no FIFOs among a folder's names; a named pipe or device is not a regular file either.
std::string read_input(const std::filesystem::path& path, uint64_t max_bytes) {
  const std::string name = platform::utf8(path);
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec) throw std::runtime_error(name + ": cannot read the file (" + ec.message() + ")");
  if (std::filesystem::is_directory(st)) throw std::runtime_error(name + ": is a directory, not a file");
  if (!std::filesystem::is_regular_file(st))
    throw std::runtime_error(name + ": not a regular file (a pipe, socket or device); give a file on disk");
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  if (ec) throw std::runtime_error(name + ": cannot read the file (" + ec.message() + ")");
  if (bytes > max_bytes)
    throw std::runtime_error(name + ": " + size_text(bytes) + ", more than the " + size_text(max_bytes) +
                             " vklab reads for it");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(name + ": cannot read the file (" + std::strerror(errno) + ")");
  std::string data(size_t(bytes), '\0');
  in.read(data.data(), std::streamsize(data.size()));
  data.resize(size_t(in.gcount()));  // the file shrank while read
  return data;
}
#else
std::string read_input(const std::filesystem::path& path, uint64_t max_bytes) {
  std::string name = platform::utf8(path);
  // O_NONBLOCK: opening a FIFO with no writer must not wait; fstat then refuses it.
  int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(name + ": cannot read the file (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw std::runtime_error(name + ": cannot read the file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw std::runtime_error(name + ": is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    throw std::runtime_error(name + ": not a regular file (a pipe, socket or device); give a file on disk");
  if (uint64_t(st.st_size) > max_bytes)
    throw std::runtime_error(name + ": " + size_text(uint64_t(st.st_size)) + ", more than the " + size_text(max_bytes) +
                             " vklab reads for it");
  std::string data(size_t(st.st_size), '\0');
  size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(name + ": read failed (" + std::strerror(errno) + ")");
    if (n == 0) break;  // the file shrank while read
    got += size_t(n);
  }
  data.resize(got);
  return data;
}
#endif

}  // namespace io
