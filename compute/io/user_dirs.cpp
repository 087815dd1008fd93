#include "compute/io/user_dirs.h"

#include <cstdlib>

namespace io {

std::filesystem::path user_dir(const char* override_env, const char* xdg_env, const char* home_folder) {
  auto env = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (const char* d = env(override_env)) return d;
  if (const char* x = env(xdg_env)) return std::filesystem::path(x) / "vklab";
  if (const char* h = env("HOME")) return std::filesystem::path(h) / home_folder / "vklab";
  return {};
}

}  // namespace io
