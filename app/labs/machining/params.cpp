#include "app/labs/machining/params.h"

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
  k.push_back("finish");
  return k;
}

std::vector<std::string> machining_colormaps() {
  auto names = render::colormap_names();
  names.insert(names.begin(), "auto");
  return names;
}

void declare_machining_params(ParamSet& p) {
  p.group("Stock");
  p.add_int("stock_size", 256, 16, 8192, "brins along each side").labelled("Stock size", "brins").rebuild = true;
  p.add_float("spacing", 0.25, 0.001, 10.0, "distance between brins").labelled("Brin spacing").rebuild = true;
  p.back().log_scale = true;
  p.add_float("zoom", 1.0, 1.0, 1024.0,
              "re-run on a window this many times smaller, same brin count "
              "(the SIMSURF report's zoom configurations)")
      .labelled("Zoom", "×")
      .rebuild = true;
  p.back().log_scale = true;
  p.add_float("zoom_x", 0.5, 0.0, 1.0, "zoom window centre, as a fraction of the stock's x")
      .labelled("Zoom centre x")
      .rebuild = true;
  p.add_float("zoom_y", 0.5, 0.0, 1.0, "zoom window centre, as a fraction of the stock's y")
      .labelled("Zoom centre y")
      .rebuild = true;
  p.add_text("stock_file", "",
             "starting heights: a heights.npy from an earlier --dump (roughing before "
             "finishing); empty: flat at 0")
      .labelled("Stock file")
      .rebuild = true;
  p.back().file_types = {".npy"};
  p.add_choice("surface", surface_names(), "flat",
               "the stock's starting surface: flat, a cylinder along x or a dome, highest at 0 over the "
               "stock's centre (curved: the N-buffer's rays along the normal differ from the vertical ones)")
      .labelled("Stock surface")
      .rebuild = true;
  p.add_float("surface_radius", 48.0, 1.0, 1e6, "the cylinder's or the dome's radius")
      .labelled("Surface radius")
      .rebuild = true;
  p.back().log_scale = true;
  p.group("Tool");
  p.add_choice("tool_shape", tool_shapes(), "sphere", "generated tool: ball end, bull nose, cone, flat end")
      .labelled("Tool shape")
      .rebuild = true;
  p.add_float("tool_diameter", 6.0, 0.01, 1000.0, "generated tool's diameter").labelled("Tool diameter").rebuild = true;
  p.add_int("tool_triangles", 1984, 16, 200000,
            "generated tool's resolution (the SIMSURF report's: sphere 320, 1984, 12482; cone 64; torus 25904)")
      .labelled("Tool triangles")
      .rebuild = true;
  p.add_text("tool_file", "",
             "an STL file (binary or ASCII) for the tool, tip at the origin, axis +z; "
             "empty: the generated tool")
      .labelled("Tool file")
      .rebuild = true;
  p.back().file_types = {".stl"};
  p.add_choice("tool_model", {"mesh", "analytic"}, "mesh",
               "the generated tool as its triangle mesh, or as its exact surface intersected per brin "
               "(SIMSURF ch. 12; compute engines and cpu)")
      .labelled("Tool model")
      .rebuild = true;
  p.group("Tool path");
  p.add_choice("path", machining_path_choices(), "spiral",
               "generated tool path (Abecassis 2012, SIMSURF, 13.2.1); finish: passes along x following the "
               "stock's surface with the ball end, 0.5 deep, scallops left between them")
      .labelled("Path pattern")
      .rebuild = true;
  p.add_int("path_positions", 4000, 1, 2000000, "generated path's positions").labelled("Path positions").rebuild = true;
  p.add_float("stepover", 2.0, 0.01, 1000.0, "distance between passes / spiral turns").labelled("Stepover").rebuild =
      true;
  p.add_text("path_file", "",
             "positions (x y z [i j k] [omega] a line) or G-code (.nc, .ngc, .gcode, .tap, any case); "
             "empty: the generated path")
      .labelled("Path file")
      .rebuild = true;
  p.back().file_types = {"*"};  // positions have no fixed extension
  p.add_float("gcode_step", 0.25, 0.001, 100.0, "G-code moves are cut into positions this far apart")
      .labelled("G-code step")
      .rebuild = true;
  p.group("Milling");
  p.add_choice("rays", {"vertical", "normal"}, "vertical",
               "vertical: the Z-buffer (SIMSURF 5.4), a height a brin; normal: the N-buffer (5.3), a ray a "
               "brin along the starting surface's normal holding its length (brin and cpu engines, mesh tools, "
               "single precision)")
      .labelled("Rays (Z- / N-buffer)")
      .rebuild = true;
  // "fine" by default: the compute engines agree bit for bit on every device; the hardware
  // rasterizer snaps vertices to its sub-pixel grid (an H100: 1/256 pixel), so its heights
  // move by up to slope x spacing / 256 from device to device.
  p.add_choice("engine", engine_names(), "fine",
               "Z-buffer engine: the compute ones are bit-identical on every device; hardware: the "
               "rasterizer, within slope x spacing x 2^-subPixelPrecisionBits of them")
      .labelled("Z-buffer engine");
  p.add_choice("atomic", atomic_names(), "native",
               "how the position, triangle, fine and persistent engines lower a brin (SIMSURF ch. 7): "
               "atomicMin, a compare-and-swap loop, a spin lock per brin, or none (a race that loses cuts)")
      .labelled("Atomicity");
  p.add_choice("intersection", hit_test_names(), "edge",
               "brin-triangle test (SIMSURF ch. 8): edge functions as a rasterizer (edge), Moller-Trumbore "
               "with the Z-buffer's vertical ray propagated (zbuffer) or as published (general)")
      .labelled("Intersection");
  p.add_choice("precision", {"single", "double"}, "single",
               "heights and intersection in 32 or 64 bits (SIMSURF 15.4; double: not the hardware engine)")
      .labelled("Precision")
      .rebuild = true;
  p.add_choice("arithmetic", {"precise", "fast"}, "precise",
               "fast: the compute engines without `precise` and with the driver's division and square root, "
               "single precision (SIMSURF 15.5, CUDA's -use_fast_math)")
      .labelled("Arithmetic");
  p.add_int("granularity", 1, 1, 4096,
            "G (SIMSURF 6.4.3): the position engine shares a position's triangles among G threads, the "
            "triangle engine a triangle's positions; bench section 6.4.3 sweeps it")
      .labelled("Granularity G");
  p.add_choice("workgroup", {"32", "64", "128", "256", "512", "1024"}, "64",
               "the compute engines' workgroup size (bench section 6.4.3 sweeps it)")
      .labelled("Workgroup size");
  p.add_int("positions_per_frame", 100, 1, 1000000, "positions milled a frame (a bounded submission)")
      .labelled("Positions a frame");
  p.group("Picture");
  p.add_float("height_scale", 4.0, 0.1, 50.0, "vertical exaggeration in the picture").labelled("Height scale", "×");
  p.add_bool("show_tool", true, "draw the tool at the last milled position").labelled("Show tool");
  p.add_choice("display", {"depth", "shaded", "error", "engines", "laplacian"}, "depth",
               "the surface's colour (SIMSURF ch. 16): depth of cut, none, single - double precision in ulps "
               "(15.4.2), this run - compare_engine's in ulps, or the Laplacian of the heights (scallops)")
      .labelled("Display");
  p.add_choice("compare_engine", engine_names(), "cpu", "the engine the 'engines' display compares this run with")
      .labelled("Compare with");
  p.add_choice("colormap", machining_colormaps(), "auto",
               "colour map of the display (auto: heat for depth, coolwarm for the signed fields)")
      .labelled("Colour map");
  p.add_float("light_azimuth", 35, 0, 360, "light direction around the vertical").labelled("Light azimuth", "°");
  p.add_float("light_elevation", 55, 5, 90, "light height above the horizon").labelled("Light elevation", "°");
  p.add_choice("profile_along", {"x", "y"}, "x", "the profile line: a row (along x) or a column (along y)")
      .labelled("Profile along");
  p.add_float("profile_row", 0.5, 0.0, 1.0, "where the profile line is taken, as a fraction of the stock")
      .labelled("Profile at");
}

Stock machining_stock(const ParamSet& p) {
  Stock s;
  s.nx = s.ny = uint32_t(p.get_int("stock_size"));
  s.f64 = p.choice("precision") == "double";
  s.nbuffer = p.choice("rays") == "normal";
  s.surface.shape = surface_from_name(p.choice("surface"));
  s.surface.radius = float(p.get("surface_radius"));
  if (s.f64 && p.choice("engine") == "hardware") throw ParamError("the hardware engine is single precision only");
  float d0 = float(p.get("spacing")), zoom = float(p.get("zoom")), side = float(s.nx - 1) * d0;
  s.d = d0 / zoom;
  s.x0 = float(p.get("zoom_x")) * side - 0.5f * float(s.nx - 1) * s.d;
  s.y0 = float(p.get("zoom_y")) * side - 0.5f * float(s.ny - 1) * s.d;
  s.surface.centre = glm::vec2(0.5f * side);
  if (s.nbuffer && s.f64) throw ParamError("the N-buffer is single precision: set precision=single");
  if (s.nbuffer && p.choice("tool_model") == "analytic")
    throw ParamError("the N-buffer intersects the tool's triangles: set tool_model=mesh");
  return s;
}

std::vector<float> machining_stock_file(const ParamSet& p, const Stock& s) {
  const std::string& file = p.text("stock_file");
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

std::optional<AnalyticTool> machining_analytic_tool(const ParamSet& p) {
  if (p.choice("tool_model") != "analytic") return std::nullopt;
  if (!p.text("tool_file").empty())
    throw ParamError("an analytic tool is a generated shape: clear tool_file, or set tool_model=mesh");
  return analytic_tool(p.choice("tool_shape"), float(p.get("tool_diameter")));
}

Mesh machining_tool(const ParamSet& p) {
  if (!p.text("tool_file").empty()) return read_stl(p.text("tool_file"));
  return make_tool(p.choice("tool_shape"), float(p.get("tool_diameter")), uint32_t(p.get_int("tool_triangles")));
}

std::vector<Position> machining_path(const ParamSet& p, const Stock& s, std::string& held) {
  const std::string& pf = p.text("path_file");
  const float side = 2 * s.surface.centre.x;  // the whole stock, whatever the zoom
  held.clear();
  if (pf.empty() && p.choice("path") == "finish")
    return finishing_path(s.surface, s.top, side, 0.5f * float(p.get("tool_diameter")), float(p.get("stepover")),
                          uint32_t(p.get_int("path_positions")), 0.5f);
  if (pf.empty())
    return generate_path(p.choice("path"), side, uint32_t(p.get_int("path_positions")), float(p.get("stepover")));
  if (!is_gcode_file(pf)) return read_positions(pf);
  Gcode g = read_gcode(pf, float(p.get("gcode_step")));
  held = describe(g.summary);
  return std::move(g.positions);
}
