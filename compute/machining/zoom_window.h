// The bench's zoom configurations (seed 003 §13.2.1: a window 64 times smaller, 8 for ébauche,
// re-run with the same brins): which positions a window keeps, and where to put the window so
// that it keeps exactly as many positions as the report's table gives (135, 191, 201, 121, 619).
// The report does not say where it zoomed; our generated paths are not its paths.
#pragma once
#include "compute/machining/io/path.h"

#include <glm/glm.hpp>

#include <optional>
#include <vector>

namespace machining {

// The positions whose tool can reach the square window [lo, lo + window]²: a tip within
// `reach` (the tool's radius) of it along x and along y, the bounds excluded.
std::vector<Position> reaching(const std::vector<Position>& path, glm::vec2 lo, float window, float reach);

// The window's lower corner nearest `centre` (its centre moved along 16 fixed directions) where
// exactly `count` positions reach it; nullopt if no place on those directions keeps `count`.
std::optional<glm::vec2> window_keeping(const std::vector<Position>& path, glm::vec2 centre, float window, float reach,
                                        size_t count);

}  // namespace machining
