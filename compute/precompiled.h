// The heavy headers most translation units of compute/, render/ and app/ include, compiled
// once a target (CMake's target_precompile_headers, vklab_precompile in the top CMakeLists):
// volk's Vulkan declarations, nlohmann::json, glm and the standard library's most used parts.
// Nothing here changes what a file means: each file still includes what it uses.
#pragma once
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <volk.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
