#include "app/core/assets.h"

#include "compute/io/platform.h"

#include <cstdlib>
#include <stdexcept>
#include <vector>

std::filesystem::path find_asset(const std::string& relative) {
  std::vector<std::filesystem::path> roots;
  if (const char* env = std::getenv("VKLAB_ASSET_DIR")) roots.emplace_back(env);
  if (auto exe = platform::executable(); !exe.empty()) {
    roots.push_back(exe.parent_path() / "assets");
    roots.push_back(exe.parent_path().parent_path() / "share" / "vklab" / "assets");  // installed
  }
  roots.emplace_back(VKLAB_SOURCE_ASSET_DIR);
  for (auto& r : roots)
    if (std::filesystem::exists(r / relative)) return r / relative;
  throw std::runtime_error("asset " + relative +
                           " not found (looked beside the executable, in VKLAB_ASSET_DIR and in " +
                           std::string(VKLAB_SOURCE_ASSET_DIR) + ")");
}
