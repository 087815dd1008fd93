// The machining lab's knobs (Abecassis 2012, SIMSURF), declared once: stock, tool, tool path,
// milling and picture groups, with their help lines (app/labs/machining.cpp reads them).
#pragma once
#include "params.h"

#include <string>
#include <vector>

void declare_machining_params(ParamSet& p);
// The generated paths (compute/machining/path.h) and "finish" (surface.h's finishing_path()).
std::vector<std::string> machining_path_choices();
// "auto" and render/colormap.h's maps.
std::vector<std::string> machining_colormaps();
