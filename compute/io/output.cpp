// Whole files or none (output.h).
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef _WIN32
#include "compute/io/windows_api.h"
// windows.h first
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#else
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#endif

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
         platform::utf8_path("." + platform::utf8(name) + "." + std::to_string(platform::process_id()) + "." +
                             std::to_string(++calls) + what);
}

[[noreturn]] void fail(const fs::path& path, const std::string& why) {
  throw std::runtime_error(platform::utf8(path) + ": cannot be written (" + why + ")");
}

// The system's calls a whole-file write needs, POSIX and Windows: each returns 0 or the error's
// text through `why`.
#ifdef _WIN32
// A new file only (never one in the way, a planted link included), for writing.
int create_new(const fs::path& p) {
  return ::_wopen(p.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
}
long write_some(int fd, const char* data, size_t n) {
  return ::_write(fd, data, unsigned(std::min<size_t>(n, 1u << 30)));
}
int sync_fd(int fd) { return ::_commit(fd); }
int close_fd(int fd) { return ::_close(fd); }
void remove_file(const fs::path& p) { ::DeleteFileW(p.c_str()); }
// `from` renamed to `to`, a file there replaced; false on failure (platform::system_error says why).
bool rename_file(const fs::path& from, const fs::path& to) {
  return ::MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
}
int open_existing(const fs::path& p) { return ::_wopen(p.c_str(), _O_RDWR | _O_BINARY); }  // for sync_fd
bool exchange(const fs::path&, const fs::path&) { return false; }  // no atomic swap of two names
#else
int create_new(const fs::path& p) {
  return ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}
long write_some(int fd, const char* data, size_t n) { return long(::write(fd, data, n)); }
int sync_fd(int fd) { return ::fsync(fd) != 0 && errno != EINVAL ? -1 : 0; }
int close_fd(int fd) { return ::close(fd); }
void remove_file(const fs::path& p) { ::unlink(p.c_str()); }
bool rename_file(const fs::path& from, const fs::path& to) { return ::rename(from.c_str(), to.c_str()) == 0; }
int open_existing(const fs::path& p) { return ::open(p.c_str(), O_RDONLY | O_CLOEXEC); }
// One step where the file system can (Linux's RENAME_EXCHANGE): the target is always whole.
bool exchange(const fs::path& a, const fs::path& b) {
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
}
#endif

bool move(const fs::path& from, const fs::path& to, std::string& why) {
  if (rename_file(from, to)) return true;
  why = platform::system_error();
  return false;
}

void sync_file(const fs::path& p) {
  int fd = open_existing(p);
  if (fd >= 0) {
    sync_fd(fd);
    close_fd(fd);
  }
}

void rename_over(const fs::path& from, const fs::path& to) {
  std::string why;
  if (!move(from, to, why)) {
    remove_file(from);
    fail(to, why);
  }
}

}  // namespace

void write_file(const fs::path& path, std::string_view bytes) {
  fs::path tmp = beside(path, ".partial");
  int fd = create_new(tmp);  // never a planted link
  if (fd < 0) fail(path, std::strerror(errno));
  size_t done = 0;
  int error = 0;
  while (done < bytes.size() && !error) {
    long n = write_some(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error = n < 0 ? errno : ENOSPC;
    else
      done += size_t(n);
  }
  if (!error && sync_fd(fd) != 0) error = errno;  // the data on disk before the name
  if (close_fd(fd) != 0 && !error) error = errno;
  if (error) {
    remove_file(tmp);
    fail(path, std::strerror(error));
  }
  rename_over(tmp, path);
}

OutputFile::OutputFile(fs::path path) : path_(std::move(path)), temporary_(beside(path_, ".partial")) {}

OutputFile::~OutputFile() {
  if (!done_) remove_file(temporary_);
}

void OutputFile::commit() {
  done_ = true;
  std::error_code ec;
  if (!fs::is_regular_file(temporary_, ec)) fail(path_, "nothing was written");
  sync_file(temporary_);
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
  std::string why;
  if (!fs::exists(path_, ec)) {
    if (!move(temporary_, path_, why)) fail(path_, why);
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
      if (!move(temporary_ / n, path_ / n, why)) fail(path_ / n, why);
    return;  // the destructor removes the emptied temporary folder
  }
  // One step where the system can (exchange()), else two: a kill between them leaves the target at .old.
  if (!exchange(temporary_, path_)) {
    fs::path old = beside(path_, ".old");
    fs::remove_all(old, ec);
    if (!move(path_, old, why)) fail(path_, why);
    if (!move(temporary_, path_, why)) {
      std::string ignored;
      move(old, path_, ignored);  // the previous folder back in its place
      fail(path_, why);
    }
    fs::remove_all(old, ec);
    done_ = true;
    return;
  }
  done_ = true;
  fs::remove_all(temporary_, ec);  // now the previous folder
}

}  // namespace io
