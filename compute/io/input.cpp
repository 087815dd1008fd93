#include "compute/io/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace io {

std::string read_input(const std::filesystem::path& path, uint64_t max_bytes) {
  std::string name = path.string();
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
  auto size = [](uint64_t b) {
    return b >= (uint64_t(4) << 20) ? std::to_string(b >> 20) + " MiB" : std::to_string((b + 1023) >> 10) + " KiB";
  };
  if (uint64_t(st.st_size) > max_bytes)
    throw std::runtime_error(name + ": " + size(uint64_t(st.st_size)) + ", more than the " + size(max_bytes) +
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

}  // namespace io
