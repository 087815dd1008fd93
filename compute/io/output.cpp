// Whole files or none (output.h).
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace io {

namespace fs = std::filesystem;

namespace {

// ".NAME.PID.N.partial": a name of this process and call alone (threads writing one target
// each get their own).
fs::path beside(const fs::path& path, const char* what) {
  static std::atomic<unsigned> calls{0};
  fs::path name = path.filename();
  if (name.empty()) name = "output";
  return path.parent_path() /
         ("." + name.string() + "." + std::to_string(platform::process_id()) + "." + std::to_string(++calls) + what);
}

[[noreturn]] void fail(const fs::path& path, const std::string& why) {
  throw std::runtime_error(path.string() + ": cannot be written (" + why + ")");
}

void rename_over(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    int e = errno;
    ::unlink(from.c_str());
    fail(to, std::strerror(e));
  }
}

}  // namespace

void write_file(const fs::path& path, std::string_view bytes) {
  fs::path tmp = beside(path, ".partial");
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);  // never a planted link
  if (fd < 0) fail(path, std::strerror(errno));
  size_t done = 0;
  int error = 0;
  while (done < bytes.size() && !error) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error = n < 0 ? errno : ENOSPC;
    else
      done += size_t(n);
  }
  if (!error && ::fsync(fd) != 0 && errno != EINVAL) error = errno;  // the data on disk before the name
  if (::close(fd) != 0 && !error) error = errno;
  if (error) {
    ::unlink(tmp.c_str());
    fail(path, std::strerror(error));
  }
  rename_over(tmp, path);
}

OutputFile::OutputFile(fs::path path) : path_(std::move(path)), temporary_(beside(path_, ".partial")) {}

OutputFile::~OutputFile() {
  if (!done_) ::unlink(temporary_.c_str());
}

void OutputFile::commit() {
  done_ = true;
  std::error_code ec;
  if (!fs::is_regular_file(temporary_, ec)) fail(path_, "nothing was written");
  int fd = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  rename_over(temporary_, path_);
}

OutputFolder::OutputFolder(fs::path path) : path_(std::move(path)) {
  if (path_.filename().empty()) path_ = path_.parent_path();  // "out/" is "out"
  temporary_ = beside(path_, ".partial");
  std::error_code ec;
  fs::remove_all(temporary_, ec);
  if (path_.has_parent_path()) fs::create_directories(path_.parent_path(), ec);
  if (!fs::create_directory(temporary_, ec)) fail(path_, ec ? ec.message() : "a temporary folder");
}

OutputFolder::~OutputFolder() {
  std::error_code ec;
  if (!done_) fs::remove_all(temporary_, ec);
}

void OutputFolder::commit() {
  std::error_code ec;
  if (!fs::exists(path_, ec)) {
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail(path_, std::strerror(errno));
    done_ = true;
    return;
  }
  if (!fs::is_directory(path_, ec)) fail(path_, "a file of that name is in the way");
  // A folder holding anything the new one does not (the user's own files) keeps it: the new
  // files are moved in one by one, params.json-like names last being the caller's order.
  bool same_shape = true;
  for (auto& e : fs::directory_iterator(path_, ec))
    same_shape = same_shape && e.is_regular_file() && fs::exists(temporary_ / e.path().filename());
  if (!same_shape) {
    std::vector<fs::path> names;
    for (auto& e : fs::directory_iterator(temporary_, ec)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end(), [](auto& a, auto& b) { return (a == "params.json") < (b == "params.json"); });
    for (auto& n : names)
      if (::rename((temporary_ / n).c_str(), (path_ / n).c_str()) != 0) fail(path_ / n, std::strerror(errno));
    return;  // the destructor removes the emptied temporary folder
  }
  // One step where the file system can (Linux's RENAME_EXCHANGE): the target is always whole.
  if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) != 0) {
    fs::path old = beside(path_, ".old");  // else two: a kill between them leaves the target at .old
    fs::remove_all(old, ec);
    if (::rename(path_.c_str(), old.c_str()) != 0) fail(path_, std::strerror(errno));
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
      int e = errno;
      ::rename(old.c_str(), path_.c_str());  // the previous folder back in its place
      fail(path_, std::strerror(e));
    }
    fs::remove_all(old, ec);
    done_ = true;
    return;
  }
  done_ = true;
  fs::remove_all(temporary_, ec);  // now the previous folder
}

}  // namespace io
