// The machining lab's knobs (Abecassis 2012, SIMSURF), declared once: stock, tool, tool path,
// milling and picture groups, with their help lines (app/labs/machining.cpp reads them).
#pragma once
#include "app/params.h"
#include "compute/machining/analytic.h"
#include "compute/machining/zbuffer.h"

#include <optional>

#include <string>
#include <vector>

void declare_machining_params(ParamSet& p);
// The generated paths (compute/machining/path.h) and "finish" (surface.h's finishing_path()).
std::vector<std::string> machining_path_choices();
// "auto" and render/colormap.h's maps.
std::vector<std::string> machining_colormaps();

// What the knobs ask for, checked (ParamError naming the knob otherwise): the stock's grid and
// surface (zoomed), its starting heights from stock_file, the tool as its exact surface (or
// none) and as a mesh, and the path (held: what a G-code file held, else "").
machining::Stock machining_stock(const ParamSet& p);
std::vector<float> machining_stock_file(const ParamSet& p, const machining::Stock& s);
std::optional<machining::AnalyticTool> machining_analytic_tool(const ParamSet& p);
machining::Mesh machining_tool(const ParamSet& p);
std::vector<machining::Position> machining_path(const ParamSet& p, const machining::Stock& s, std::string& held);
