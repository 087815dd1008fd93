#include "app/core/assets.h"

#include <unistd.h>
#include <cstdlib>
#include <stdexcept>
#include <vector>

std::filesystem::path find_asset(const std::string& relative) {
  std::vector<std::filesystem::path> roots;
  if (const char* env = std::getenv("VKLAB_ASSET_DIR")) roots.emplace_back(env);
  char buf[4096];
  ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len > 0) {
    buf[len] = 0;
    roots.push_back(std::filesystem::path(buf).parent_path() / "assets");
    roots.push_back(std::filesystem::path(buf).parent_path().parent_path() / "share" / "vklab" /
                    "assets");  // installed
  }
  roots.emplace_back(VKLAB_SOURCE_ASSET_DIR);
  for (auto& r : roots)
    if (std::filesystem::exists(r / relative)) return r / relative;
  throw std::runtime_error("asset " + relative +
                           " not found (looked beside the executable, in VKLAB_ASSET_DIR and in " +
                           std::string(VKLAB_SOURCE_ASSET_DIR) + ")");
}
