// The machining lab's knobs (Abecassis 2012, SIMSURF), declared once: stock, tool, tool path,
// milling and picture groups, with their help lines. The lab (app/labs/machining/machining_lab.cpp),
// its read-outs and its panels read them through MachiningKnobs.
#pragma once
#include "app/core/params.h"
#include "compute/machining/analytic.h"
#include "compute/machining/simplify.h"
#include "compute/machining/surface.h"
#include "compute/machining/zbuffer.h"
#include "render/grid_indices.h"

#include <optional>

#include <string>
#include <vector>

// The lab's own choices; the surface, engines, atomics and intersections are compute's enums.
enum class Precision { Single, Double };
enum class Rays { Vertical, Normal };  // the Z-buffer's, or the N-buffer's along the surface's normal
enum class ToolModel { Mesh, Analytic };
enum class Arithmetic { Precise, Fast };
enum class Display { Depth, Shaded, Error, Engines, Laplacian };  // what colours the surface
enum class Axis { X, Y };
enum class Partition { Fixed, Dynamic };     // SIMSURF §4.3.1 and §4.3.2 (compute/machining/partition.h)
enum class CameraKind { Orbit, Trackball };  // SIMSURF §16.3.3
enum class Accelerator { None, Bvh };        // the N-buffer's triangles: each one, or a hierarchy (bvh.h)

// The path choice that follows the stock's surface (surface.h's finishing_path()), beside the
// generated ones; the colour map choice that picks one from the display.
inline const std::string kFinishPath = "finish";
inline const std::string kAutoColormap = "auto";

// Every knob of the lab, in the order declared (the panel's order within each group).
struct MachiningKnobs {
  // Stock
  Knob<uint32_t> stock_size;
  Knob<float> spacing;
  Knob<double> zoom, zoom_x, zoom_y;  // set by the picture's clicks, in double as --set takes them
  Knob<std::string> stock_file;
  Choice<machining::SurfaceShape> surface;
  Knob<float> surface_radius;
  // Tool
  Knob<std::string> tool_shape;  // one of tool_shapes(), compute's names
  Knob<float> tool_diameter;
  Knob<uint32_t> tool_triangles;
  Knob<std::string> tool_file;
  Knob<uint32_t> tool_simplify;  // a target triangle count, 0: the tool as loaded
  Choice<ToolModel> tool_model;
  // Tool path
  Knob<std::string> path;  // one of machining_path_choices()
  Knob<uint32_t> path_positions;
  Knob<float> stepover;
  Knob<std::string> path_file;
  Knob<float> gcode_step;
  Knob<std::string> then;  // SIMSURF §16.4.3: presets whose tool and path follow, in order
  // Milling
  Choice<Rays> rays;
  Choice<Accelerator> accelerator;
  Choice<machining::Engine> engine;
  Choice<machining::Atomic> atomic;
  Choice<machining::HitTest> intersection;
  Choice<machining::Frame> frame;
  Choice<Precision> precision;
  Choice<Arithmetic> arithmetic;
  Knob<uint32_t> granularity;
  Knob<std::string> workgroup;  // a power of two, as text
  Knob<uint32_t> positions_per_frame;
  Choice<machining::CpuSchedule> cpu_schedule;
  Choice<Partition> partition;
  Knob<double> submission_ms;
  // Picture
  Knob<float> height_scale;
  Knob<bool> show_tool;
  Choice<Display> display;
  Choice<machining::Engine> compare_engine;
  Knob<std::string> colormap;  // one of machining_colormaps()
  Knob<float> light_azimuth, light_elevation;
  Choice<Axis> profile_along;
  Knob<double> profile_row;
  // Viewer (SIMSURF §16.3, §16.4.3)
  Choice<render::LatticePrimitive> primitive;
  Choice<CameraKind> camera;
  Knob<double> replay_seconds;
};

MachiningKnobs declare_machining_params(ParamSet& p);
// The generated paths (compute/machining/io/path.h) and kFinishPath.
std::vector<std::string> machining_path_choices();
// kAutoColormap and render/colormap.h's maps.
std::vector<std::string> machining_colormaps();

// What the knobs ask for, checked (ParamError naming the knob otherwise): the stock's grid and
// surface (zoomed), its starting heights from stock_file, the tool as its exact surface (or
// none) and as a mesh, and the path (held: what a G-code file held, else "").
machining::Stock machining_stock(const MachiningKnobs& k);
std::vector<float> machining_stock_file(const MachiningKnobs& k, const machining::Stock& s);
std::optional<machining::AnalyticTool> machining_analytic_tool(const MachiningKnobs& k);
// The tool simplified to tool_simplify triangles when asked (SIMSURF 12.1.1; `simplified` then
// holds the tool before and how it went: the count after, meshoptimizer's error estimate).
struct SimplifiedTool {
  machining::Mesh original;
  machining::Simplification result;
};
machining::Mesh machining_tool(const MachiningKnobs& k, std::optional<SimplifiedTool>* simplified = nullptr);
std::vector<machining::Position> machining_path(const MachiningKnobs& k, const machining::Stock& s, std::string& held);
// The stages `then` names after this one (SIMSURF §16.4.3's configuration: a starting surface and
// (path, tool) pairs applied in turn): each preset's tool and path, from the lab's values with the
// preset's set on them, on the lab's stock. Throws ParamError naming a preset that is not the
// machining lab's or cannot be read.
struct Stage {
  std::string name;  // the preset's
  machining::Mesh tool;
  std::vector<machining::Position> path;
};
std::vector<Stage> machining_stages(const ParamSet& current, const machining::Stock& s);
