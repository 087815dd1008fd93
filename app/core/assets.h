// Sample inputs under assets/: found beside the executable, via VKLAB_ASSET_DIR, or in the
// source tree.
#pragma once
#include <filesystem>
#include <string>

std::filesystem::path find_asset(const std::string& relative);  // throws if absent
