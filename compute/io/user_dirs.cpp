#include "compute/io/user_dirs.h"

#include "compute/io/platform.h"

#include <cstdlib>

namespace io {

std::filesystem::path user_dir(UserDir which) {
  using platform::KnownFolder;
  auto within = [](KnownFolder f, const char* otherwise) {
    auto base = platform::known_folder(f);
    return base.empty() ? std::filesystem::path(otherwise) : base / "vklab";
  };
  switch (which) {
    case UserDir::Settings:
    case UserDir::Cache: {
      const bool settings = which == UserDir::Settings;
      const char* v = std::getenv(settings ? "VKLAB_CONFIG_DIR" : "VKLAB_CACHE_DIR");
      if (v && *v) return v;
      auto base = platform::known_folder(settings ? KnownFolder::Settings : KnownFolder::Cache);
      return base.empty() ? base : base / "vklab";
    }
    case UserDir::Captures:
      return within(KnownFolder::Pictures, "captures");
    case UserDir::Recordings:
      return within(KnownFolder::Videos, "recordings");
    case UserDir::Exercises: {
      if (const char* v = std::getenv("VKLAB_EXERCISE_DIR"); v && *v) return v;
      auto documents = platform::known_folder(KnownFolder::Documents);
      return (documents.empty() ? std::filesystem::path(".") : documents) / "vklab-exercises";
    }
  }
  return {};
}

}  // namespace io
