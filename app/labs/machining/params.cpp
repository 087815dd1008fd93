#include "app/labs/machining/params.h"

#include "app/core/presets.h"

#include "compute/io/npy.h"
#include "compute/machining/analytic.h"
#include "compute/machining/io/gcode.h"
#include "compute/machining/io/tool.h"
#include "compute/machining/surface.h"
#include "compute/machining/zbuffer.h"
#include "render/colormap.h"

#include <cmath>

using namespace machining;

std::vector<std::string> machining_path_choices() {
  auto k = path_kinds();
  k.push_back(kFinishPath);
  return k;
}

std::vector<std::string> machining_colormaps() {
  auto names = render::colormap_names();
  names.insert(names.begin(), kAutoColormap);
  return names;
}

MachiningKnobs declare_machining_params(ParamSet& p) {
  MachiningKnobs k;
  p.group("Stock");
  k.stock_size =
      p.add_int("stock_size", 256, 16, 8192, "brins along each side").labelled("Stock size", "brins").rebuilds();
  k.spacing = p.add_float("spacing", 0.25, 0.001, 10.0, "distance between brins")
                  .labelled("Brin spacing")
                  .rebuilds()
                  .log_scaled();
  k.zoom = p.add_float("zoom", 1.0, 1.0, 1024.0,
                       "re-run on a window this many times smaller, with the same brin count (as the report's zooms)")
               .labelled("Zoom", "×")
               .rebuilds()
               .log_scaled();
  k.zoom_x = p.add_float("zoom_x", 0.5, 0.0, 1.0, "zoom window centre, as a fraction of the stock's x")
                 .labelled("Zoom centre x")
                 .rebuilds();
  k.zoom_y = p.add_float("zoom_y", 0.5, 0.0, 1.0, "zoom window centre, as a fraction of the stock's y")
                 .labelled("Zoom centre y")
                 .rebuilds();
  k.stock_file = p.add_text("stock_file", "",
                            "starting heights: a heights.npy from an earlier --dump (roughing before "
                            "finishing); empty: flat at 0")
                     .labelled("Stock file")
                     .rebuilds()
                     .files({".npy"});
  k.surface =
      p.add_choice("surface", named_choices(surface_names(), surface_from_name), SurfaceShape::Flat,
                   "starting surface: flat, a cylinder along x or a dome (highest at 0 over the stock's centre)")
          .labelled("Stock surface")
          .rebuilds();
  k.surface_radius = p.add_float("surface_radius", 48.0, 1.0, 1e6, "the cylinder's or the dome's radius")
                         .labelled("Surface radius")
                         .rebuilds()
                         .log_scaled();
  p.group("Tool");
  k.tool_shape =
      p.add_choice("tool_shape", tool_shapes(), "sphere", "generated tool: ball end, bull nose, cone, flat end")
          .labelled("Tool shape")
          .rebuilds();
  k.tool_diameter =
      p.add_float("tool_diameter", 6.0, 0.01, 1000.0, "generated tool's diameter").labelled("Tool diameter").rebuilds();
  k.tool_triangles =
      p.add_int("tool_triangles", 1984, 16, 200000,
                "generated tool's resolution (the SIMSURF report's: sphere 320, 1984, 12482; cone 64; torus 25904)")
          .labelled("Tool triangles")
          .rebuilds();
  k.tool_file = p.add_text("tool_file", "",
                           "an STL file (binary or ASCII) for the tool, tip at the origin, axis +z; "
                           "empty: the generated tool")
                    .labelled("Tool file")
                    .rebuilds()
                    .files({".stl"});
  k.tool_simplify = p.add_int("tool_simplify", 0, 0, 200000,
                              "simplify the tool's mesh to at most this many triangles by edge collapse; 0: as loaded")
                        .labelled("Simplify to", "triangles")
                        .rebuilds();
  k.tool_model =
      p.add_choice("tool_model", {{ToolModel::Mesh, "mesh"}, {ToolModel::Analytic, "analytic"}}, ToolModel::Mesh,
                   "the generated tool as its triangle mesh, or its exact surface (analytic; compute and cpu engines)")
          .labelled("Tool model")
          .rebuilds();
  p.group("Tool path");
  k.path = p.add_choice("path", machining_path_choices(), "spiral",
                        "generated tool path; finish: ball-end passes along x, 0.5 deep under the stock's surface")
               .labelled("Path pattern")
               .rebuilds();
  k.path_positions =
      p.add_int("path_positions", 4000, 1, 2000000, "generated path's positions").labelled("Path positions").rebuilds();
  k.stepover = p.add_float("stepover", 2.0, 0.01, 1000.0, "distance between passes / spiral turns")
                   .labelled("Stepover")
                   .rebuilds();
  k.path_file =
      p.add_text("path_file", "",
                 "positions (x y z [i j k] [omega] a line) or G-code (.nc, .ngc, .gcode, .tap); empty: generated")
          .labelled("Path file")
          .rebuilds()
          .files({"*"});  // positions have no fixed extension
  k.gcode_step = p.add_float("gcode_step", 0.25, 0.001, 100.0, "G-code moves are cut into positions this far apart")
                     .labelled("G-code step")
                     .rebuilds();
  k.then = p.add_text("then", "", "presets whose tool and path mill on in turn from the surface left (comma-separated)")
               .labelled("Then")
               .rebuilds();
  p.group("Milling");
  k.rays = p.add_choice("rays", {{Rays::Vertical, "vertical"}, {Rays::Normal, "normal"}}, Rays::Vertical,
                        "vertical: the Z-buffer, a height a brin; normal: the N-buffer, a ray a brin along the normal")
               .labelled("Rays (Z- / N-buffer)")
               .rebuilds();
  k.accelerator =
      p.add_choice("accelerator", {{Accelerator::None, "none"}, {Accelerator::Bvh, "bvh"}}, Accelerator::None,
                   "the N-buffer (rays normal): every tool triangle, or a bounding-volume hierarchy")
          .labelled("N-buffer accelerator");
  // "fine" by default: the compute engines agree bit for bit on every device; the hardware
  // rasterizer snaps vertices to its sub-pixel grid (an H100: 1/256 pixel), so its heights
  // move by up to slope x spacing / 256 from device to device.
  k.engine =
      p.add_choice("engine", named_choices(engine_names(), engine_from_name), Engine::Fine,
                   "Z-buffer engine: the compute ones give the same bits on every device; hardware: the rasterizer")
          .labelled("Z-buffer engine");
  k.atomic =
      p.add_choice("atomic", named_choices(atomic_names(), atomic_from_name), Atomic::Native,
                   "lowering a brin: native (atomicMin), cas (compare-and-swap loop), lock (spin lock), none (a race)")
          .labelled("Atomicity");
  k.intersection =
      p.add_choice(
           "intersection", named_choices(hit_test_names(), hit_test_from_name), HitTest::Edge,
           "brin-triangle test: edge functions (edge), Moller-Trumbore, vertical (zbuffer) or any ray (general)")
          .labelled("Intersection");
  k.frame =
      p.add_choice("frame", named_choices(frame_names(), frame_from_name), Frame::Tool,
                   "where the brin-triangle test computes: tool (the report's fix) or world (unstable far from 0)")
          .labelled("Intersection frame");
  k.precision =
      p.add_choice("precision", {{Precision::Single, "single"}, {Precision::Double, "double"}}, Precision::Single,
                   "heights and intersection in 32 or 64 bits (SIMSURF 15.4; double: not the hardware engine)")
          .labelled("Precision")
          .rebuilds();
  k.arithmetic =
      p.add_choice("arithmetic", {{Arithmetic::Precise, "precise"}, {Arithmetic::Fast, "fast"}}, Arithmetic::Precise,
                   "fast: single-precision compute engines without `precise`, the driver's division and square root")
          .labelled("Arithmetic");
  k.granularity =
      p.add_int("granularity", 1, 1, 4096,
                "G: threads sharing a position's triangles (position engine) or a triangle's positions (triangle)")
          .labelled("Granularity G");
  k.workgroup = p.add_choice("workgroup", {"32", "64", "128", "256", "512", "1024"}, "64",
                             "the compute engines' workgroup size (bench section 6.4.3 sweeps it)")
                    .labelled("Workgroup size");
  k.positions_per_frame =
      p.add_int("positions_per_frame", 100, 1, 1000000,
                "positions milled a frame (a bounded submission; partition=dynamic: the first frame's)")
          .labelled("Positions a frame");
  k.cpu_schedule =
      p.add_choice(
           "cpu_schedule",
           {{CpuSchedule::Static, "static"}, {CpuSchedule::Dynamic, "dynamic"}, {CpuSchedule::Guided, "guided"}},
           CpuSchedule::Dynamic, "the CPU engine's bands of rows to its threads (OpenMP's schedules)")
          .labelled("CPU schedule");
  k.partition =
      p.add_choice("partition", {{Partition::Fixed, "fixed"}, {Partition::Dynamic, "dynamic"}}, Partition::Fixed,
                   "fixed: Positions a frame (SIMSURF §4.3.1); dynamic: sized from the last frame's time")
          .labelled("Partition");
  k.submission_ms = p.add_float("submission_ms", 8, 0.05, 2000,
                                "dynamic: the GPU time a frame's milling may take (a watchdog's limit)")
                        .labelled("Time budget", "ms");
  p.group("Picture");
  k.height_scale =
      p.add_float("height_scale", 4.0, 0.1, 50.0, "vertical exaggeration in the picture").labelled("Height scale", "×");
  k.show_tool = p.add_bool("show_tool", true, "draw the tool at the last milled position").labelled("Show tool");
  k.display =
      p.add_choice("display",
                   {{Display::Depth, "depth"},
                    {Display::Shaded, "shaded"},
                    {Display::Error, "error"},
                    {Display::Engines, "engines"},
                    {Display::Laplacian, "laplacian"}},
                   Display::Depth,
                   "colour: depth of cut, shaded, error (single - double, ulps), engines (vs Compare with), laplacian")
          .labelled("Display");
  k.compare_engine = p.add_choice("compare_engine", named_choices(engine_names(), engine_from_name), Engine::Cpu,
                                  "the engine the 'engines' display compares this run with")
                         .labelled("Compare with");
  k.colormap = p.add_choice("colormap", machining_colormaps(), kAutoColormap,
                            "colour map of the display (auto: heat for depth, coolwarm for the signed fields)")
                   .labelled("Colour map");
  k.light_azimuth =
      p.add_float("light_azimuth", 35, 0, 360, "light direction around the vertical").labelled("Light azimuth", "°");
  k.light_elevation =
      p.add_float("light_elevation", 55, 5, 90, "light height above the horizon").labelled("Light elevation", "°");
  k.profile_along = p.add_choice("profile_along", {{Axis::X, "x"}, {Axis::Y, "y"}}, Axis::X,
                                 "the profile line: a row (along x) or a column (along y)")
                        .labelled("Profile along");
  k.profile_row =
      p.add_float("profile_row", 0.5, 0.0, 1.0, "where the profile line is taken, as a fraction of the stock")
          .labelled("Profile at");
  p.group("Viewer");
  k.primitive = p.add_choice("primitive",
                             {{render::LatticePrimitive::Triangles, "triangles"},
                              {render::LatticePrimitive::Wireframe, "wireframe"},
                              {render::LatticePrimitive::Lines, "lines"},
                              {render::LatticePrimitive::Points, "points"}},
                             render::LatticePrimitive::Triangles,
                             "the surface drawn as filled triangles, a wireframe, lines (rows, columns) or points")
                    .labelled("Primitive");
  k.camera = p.add_choice("camera", {{CameraKind::Orbit, "orbit"}, {CameraKind::Trackball, "trackball"}},
                          CameraKind::Orbit, "right drag: orbit (yaw, pitch) or trackball (any axis)")
                 .labelled("Camera");
  k.replay_seconds =
      p.add_float("replay_seconds", 0, 0, 600,
                  "the path milled, the tool replays it in this time at 60 frames a second; 0: no replay")
          .labelled("Replay", "s");
  return k;
}

Stock machining_stock(const MachiningKnobs& k) {
  Stock s;
  s.nx = s.ny = *k.stock_size;
  s.f64 = *k.precision == Precision::Double;
  s.nbuffer = *k.rays == Rays::Normal;
  s.surface.shape = *k.surface;
  s.surface.radius = *k.surface_radius;
  if (s.f64 && *k.engine == Engine::Hardware) throw ParamError("the hardware engine is single precision only");
  float d0 = *k.spacing, zoom = float(*k.zoom), side = float(s.nx - 1) * d0;
  s.d = d0 / zoom;
  s.x0 = float(*k.zoom_x) * side - 0.5f * float(s.nx - 1) * s.d;
  s.y0 = float(*k.zoom_y) * side - 0.5f * float(s.ny - 1) * s.d;
  s.surface.centre = glm::vec2(0.5f * side);
  if (s.nbuffer && s.f64) throw ParamError("the N-buffer is single precision: set precision=single");
  if (s.nbuffer && *k.tool_model == ToolModel::Analytic)
    throw ParamError("the N-buffer intersects the tool's triangles: set tool_model=mesh");
  return s;
}

std::vector<float> machining_stock_file(const MachiningKnobs& k, const Stock& s) {
  const std::string file = *k.stock_file;
  if (s.nbuffer)
    throw ParamError("a stock file holds heights: the N-buffer starts from the stock's surface (rays=vertical)");
  std::vector<size_t> shape;
  std::vector<float> start = read_npy(file, &shape);
  if (shape != std::vector<size_t>{s.ny, s.nx})
    throw ParamError(file + ": heights of another shape than the " + std::to_string(s.nx) + " x " +
                     std::to_string(s.ny) + " stock");
  for (size_t i = 0; i < start.size(); ++i)
    if (!(std::fabs(start[i]) <= kMaxCoordinate))
      throw std::runtime_error(file + ": height " + std::to_string(i) + " is " + std::to_string(start[i]) +
                               " (heights must be finite, within +-1e6)");
  return start;
}

std::optional<AnalyticTool> machining_analytic_tool(const MachiningKnobs& k) {
  if (*k.tool_model != ToolModel::Analytic) return std::nullopt;
  if (!k.tool_file.get().empty())
    throw ParamError("an analytic tool is a generated shape: clear tool_file, or set tool_model=mesh");
  return analytic_tool(*k.tool_shape, *k.tool_diameter);
}

Mesh machining_tool(const MachiningKnobs& k, std::optional<SimplifiedTool>* simplified) {
  Mesh tool = k.tool_file.get().empty() ? make_tool(*k.tool_shape, *k.tool_diameter, *k.tool_triangles)
                                        : read_stl(*k.tool_file);
  if (simplified) simplified->reset();
  if (*k.tool_simplify == 0) return tool;
  if (*k.tool_model == ToolModel::Analytic)
    throw ParamError("tool_simplify simplifies a mesh: set tool_model=mesh, or tool_simplify=0");
  Simplification s;
  try {
    s = simplify_tool(tool, *k.tool_simplify);
  } catch (const std::invalid_argument& e) {
    throw ParamError("tool_simplify=" + std::to_string(*k.tool_simplify) + ": " + e.what());
  }
  Mesh out = s.mesh;
  if (simplified) *simplified = SimplifiedTool{std::move(tool), std::move(s)};
  return out;
}

std::vector<Position> machining_path(const MachiningKnobs& k, const Stock& s, std::string& held) {
  const std::string pf = *k.path_file;
  const float side = 2 * s.surface.centre.x;  // the whole stock, whatever the zoom
  held.clear();
  if (pf.empty() && *k.path == kFinishPath)
    return finishing_path(s.surface, s.top, side, 0.5f * *k.tool_diameter, *k.stepover, *k.path_positions, 0.5f);
  if (pf.empty()) return generate_path(*k.path, side, *k.path_positions, *k.stepover);
  if (!is_gcode_file(pf)) return read_positions(pf);
  Gcode g = read_gcode(pf, *k.gcode_step);
  held = describe(g.summary);
  return std::move(g.positions);
}

std::vector<Stage> machining_stages(const ParamSet& current, const Stock& s) {
  std::vector<Stage> stages;
  std::string list;
  for (const Param& p : current.all())
    if (p.name == "then") list = p.str;
  for (size_t at = 0; at < list.size();) {
    size_t comma = std::min(list.find(',', at), list.size());
    std::string name = list.substr(at, comma - at);
    at = comma + 1;
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) continue;
    Preset preset = find_preset(name);
    if (preset.lab != "machining")
      throw ParamError("then: " + name + " is a preset of the " + preset.lab + " lab, not of machining");
    ParamSet stage;  // the lab's values, then the preset's (a stage's own `then` is not followed)
    MachiningKnobs k = declare_machining_params(stage);
    for (const Param& p : current.all()) stage.set(p.name, p.text());
    apply_preset(preset, stage);
    std::string held;
    stages.push_back({preset.name, machining_tool(k), machining_path(k, s, held)});
  }
  return stages;
}
