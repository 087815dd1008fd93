#include "machining_params.h"

#include "machining/surface.h"
#include "machining/tool.h"
#include "machining/zbuffer.h"
#include "colormap.h"

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
              "(the seed's zoom configurations)")
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
            "generated tool's resolution (the seed's: sphere 320, 1984, 12482; cone 64; torus 25904)")
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
