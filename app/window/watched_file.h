// A file the user may edit in an editor of their own while the window runs: changed() says
// when its modification time or size moved since it was last seen (looked at no more than
// four times a second).
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>

class WatchedFile {
 public:
  void watch(const std::filesystem::path& path);  // and take the file as it is now as seen
  const std::filesystem::path& path() const { return path_; }
  bool watching() const { return !path_.empty(); }
  // True once after each change; the change is then seen.
  bool changed();
  // The file as it is now is seen (after the app wrote it itself).
  void seen();

 private:
  struct Stamp {
    bool exists = false;
    std::filesystem::file_time_type time{};
    uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  Stamp stamp() const;
  std::filesystem::path path_;
  Stamp seen_;
  std::chrono::steady_clock::time_point looked_{};
};
