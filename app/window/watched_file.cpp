#include "app/window/watched_file.h"

namespace fs = std::filesystem;

void WatchedFile::watch(const fs::path& path) {
  path_ = path;
  seen();
}

WatchedFile::Stamp WatchedFile::stamp() const {
  Stamp s;
  std::error_code ec;
  s.time = fs::last_write_time(path_, ec);
  if (ec) return {};
  s.size = fs::file_size(path_, ec);
  s.exists = !ec;
  return s;
}

void WatchedFile::seen() {
  seen_ = stamp();
  looked_ = std::chrono::steady_clock::now();
}

bool WatchedFile::changed() {
  auto now = std::chrono::steady_clock::now();
  if (path_.empty() || now - looked_ < std::chrono::milliseconds(250)) return false;
  looked_ = now;
  Stamp s = stamp();
  if (s == seen_) return false;
  seen_ = s;
  return true;
}
