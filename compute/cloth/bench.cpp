#include "compute/cloth/bench.h"

#include "compute/cloth/cloth.h"
#include "compute/cloth/tiles.h"
#include "compute/measure/host_trip.h"
#include "compute/measure/timer.h"

#include <string>

namespace cloth {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Table 4.1 of the thesis (GeForce 6600, 3 relaxations): simulation, simulation + display (ms).
struct ThesisCloth {
  uint32_t size;
  double sim_ms, sim_display_ms;
};
const ThesisCloth kThesis[] = {{16, 7.9, 10.7},    {32, 8.8, 17.9},    {64, 11.0, 45.5},
                               {128, 18.1, 166.3}, {256, 69.0, 846.0}, {512, 336.0, 2448.8}};

}  // namespace

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options, const Config& base, const std::string& pose,
                            const Display& draw) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{16, 32} : std::vector<uint32_t>{16, 32, 64, 128, 256, 512, 1024, 2048};
  const int repeats = options.quick ? 3 : 15;
  options.check_only("cloth", {"cloth.step.branching", "cloth.step.substreams", "cloth.step.shift-matrices",
                               "cloth.step+display", "cloth.step+display.readback", "cloth.16it.step+display",
                               "cloth.16it.substreams+display", "cloth.16it.gauss-seidel+display",
                               "cloth.lab-defaults+display", "cloth.gauss-seidel.kernels", "cloth.gauss-seidel.tiles"});
  BenchRows rows(options);
  using cloth::Branching, cloth::Order;
  auto configure = [&](uint32_t n, uint32_t iterations, cloth::Branching b, cloth::Order o, cloth::Method method) {
    cloth::Config c = base;
    if (iterations) {  // the thesis's relaxation (structural springs, one substep, bare contacts)
      auto t = cloth::Config::thesis();
      c.substeps = t.substeps, c.shear = t.shear, c.bend = t.bend, c.attachments = t.attachments;
      c.friction = t.friction, c.thickness = t.thickness;
      c.iterations = iterations;
    }
    c.width = c.height = n;
    c.branching = b;
    c.order = o;
    c.method = method;
    if (method == cloth::Method::ShiftMatrices) c.wind = glm::vec3(0.0f);
    return c;
  };
  auto start = [&](cloth::Simulation& sim) {
    auto p = cloth::initial_positions(sim.config, pose);
    if (pose == "hang") p[cloth::corner_index(sim.config, 0)].w = p[cloth::corner_index(sim.config, 1)].w = 0.0f;
    sim.set_state(p, p);
  };
  // Table 4.1's display the thesis's way, on the wall clock (the trips through the CPU are the
  // point): a frame is the step submitted and waited for, positions and normals read back and
  // uploaded again, the picture drawn from the copies; beside it the same frame drawn straight
  // from the simulation's buffers, and the step alone.
  auto measure_readback = [&](uint32_t n) {
    const std::string pass = "cloth.step+display.readback";
    if (!BenchOptions::chosen(options.only, pass)) return;
    cloth::Config c = configure(n, 3, Branching::Branching, Order::Jacobi, cloth::Method::Kernels);
    cloth::Simulation sim(ctx, c);
    start(sim);
    auto d = gpu::time_display_paths(
        ctx,
        [&](VkCommandBuffer cmd) {
          sim.record_restart(cmd);
          sim.record_steps(cmd, nullptr, 1);
        },
        {&sim.position_buffer(), &sim.normal_buffer()},
        [&](VkCommandBuffer cmd, const std::vector<const gpu::Buffer*>& b) { draw(cmd, sim.config, *b[0], *b[1]); },
        repeats);
    BenchRow row = d.row(pass, n, c.n(),
                         "wall clock of a frame: the step submitted and waited for, positions and normals read back "
                         "to the CPU and uploaded again, the picture drawn from the copies",
                         "cloth, sphere and ground, 1024x768 offscreen", "the GPU's buffers");
    row.reference["relaxations"] = c.iterations;
    for (auto& th : kThesis)
      if (th.size == n) {
        row.reference["thesis"] = {{"device", "GeForce 6600 (Bleton 2005, table 4.1, 3 relaxations)"},
                                   {"simulation_ms", th.sim_ms},
                                   {"simulation_display_ms", th.sim_display_ms},
                                   {"display_over_step", th.sim_display_ms / th.sim_ms}};
        row.add_note("thesis x%.3g", th.sim_display_ms / th.sim_ms);
      }
    rows.push_back(row);
  };
  auto measure = [&](uint32_t n, uint32_t iterations, cloth::Branching b, cloth::Order o, bool display,
                     const std::string& pass, double target_ms = 0, cloth::Method method = cloth::Method::Kernels,
                     double kernels_ms = 0) -> double {
    if (!BenchOptions::chosen(options.only, pass)) return 0;
    cloth::Config c = configure(n, iterations, b, o, method);
    cloth::Simulation sim(ctx, c);
    start(sim);
    auto t = gpu::time_gpu(
        ctx,
        [&](VkCommandBuffer cmd) {  // one step from the starting pose: the same picture every run
          sim.record_restart(cmd);
          sim.record_steps(cmd, nullptr, 1);
          if (display) draw(cmd, sim.config, sim.position_buffer(), sim.normal_buffer());
        },
        repeats, options.quick ? 5 : 200);
    BenchRow row{.pass = pass,
                 .size = std::to_string(n) + "x" + std::to_string(n),
                 .elements = c.n(),
                 .repeats = repeats,
                 .median_ms = t.median_ms,
                 .min_ms = t.min_ms,
                 .bytes = sim.bytes_per_step(),
                 .flops = sim.flops_per_step(),
                 .reference = {{"relaxations", c.iterations},
                               {"substeps", c.substeps},
                               {"dispatches_per_relaxation", sim.dispatches_per_relaxation()},
                               {"dispatches_per_step", sim.dispatches_per_step()},
                               {"device_saxpy_gbps", options.saxpy_gbps}}};
    row.reference["pose"] = pose;
    row.reference["order"] = c.order == cloth::Order::Jacobi ? "jacobi" : "gauss-seidel";
    row.reference["method"] = !c.tiled() && method == cloth::Method::Tiles ? "kernels (tiles apply to gauss-seidel)"
                              : method == cloth::Method::ShiftMatrices     ? "shift matrices"
                              : method == cloth::Method::Tiles             ? "tiles"
                                                                           : "kernels";
    if (c.tiled()) {
      auto plan = sim.tile_plan();
      row.reference["tiles"] = {{"tile", plan.tile_w},
                                {"halo", plan.halo},
                                {"workgroups", plan.groups_x * plan.groups_y},
                                {"relaxations_per_dispatch", plan.relaxations},
                                {"invocations", sim.tile_invocations()},
                                {"shared_memory_particles", sim.tile_capacity()}};
    }
    if (kernels_ms > 0) {  // the same step on the kernels path, measured just before
      row.reference["kernels_ms"] = kernels_ms;
      row.reference["speedup"] = kernels_ms / t.median_ms;
      row.add_note("kernels %.4g ms, %.3gx", kernels_ms, kernels_ms / t.median_ms);
    }
    row.reference["timed"] = "copy back the starting pose, one step (normals and stats included)";
    if (display) row.reference["display"] = "cloth, sphere and ground, 1024x768 offscreen";
    for (auto& th : kThesis)
      if (th.size == n && iterations == 3) {
        row.reference["thesis"] = {{"device", "GeForce 6600 (Bleton 2005, table 4.1, 3 relaxations)"},
                                   {"gpu_ms", display ? th.sim_display_ms : th.sim_ms},
                                   {"simulation_ms", th.sim_ms},
                                   {"simulation_display_ms", th.sim_display_ms}};
        row.add_note("GPU %.6g ms", display ? th.sim_display_ms : th.sim_ms);
      }
    if (target_ms > 0) {
      row.reference["target_ms"] = target_ms;
      row.add_note("target %.3g ms", target_ms);
    }
    rows.push_back(row);
    return t.median_ms;
  };
  for (uint32_t n : sizes) {
    measure(n, 3, Branching::Branching, Order::Jacobi, false, "cloth.step.branching");
    measure(n, 3, Branching::SubStreams, Order::Jacobi, false, "cloth.step.substreams");
    // 'VERLET SUR GPU' as written: 3 axpbys, then 4 shift-matrix products and gpuVerlet's
    // sub-streams a relaxation
    measure(n, 3, Branching::SubStreams, Order::Jacobi, false, "cloth.step.shift-matrices", 0,
            cloth::Method::ShiftMatrices);
    measure(n, 3, Branching::Branching, Order::Jacobi, true, "cloth.step+display");
    if (!options.quick || n == sizes.front()) measure_readback(n);  // quick: the smallest size tells it
  }
  uint32_t big = options.quick ? 32 : 1024;
  measure(big, 16, Branching::Branching, Order::Jacobi, true, "cloth.16it.step+display", options.quick ? 0.0 : 2.0);
  measure(big, 16, Branching::SubStreams, Order::Jacobi, true, "cloth.16it.substreams+display");
  measure(big, 16, Branching::Branching, Order::GaussSeidel, true, "cloth.16it.gauss-seidel+display");
  const cloth::Config& lab = base;
  measure(big, 0, lab.branching, lab.order, true, "cloth.lab-defaults+display", 0, lab.method);  // 0: the panel's
  // The lab's solver (the panel's settings, Gauss–Seidel) on the kernels path, then on the
  // tiles, the kernels' time beside: the launches the tiles save.
  for (uint32_t n : options.quick ? std::vector<uint32_t>{16, 32} : std::vector<uint32_t>{64, 256}) {
    double kernels_ms = measure(n, 0, lab.branching, Order::GaussSeidel, false, "cloth.gauss-seidel.kernels", 0,
                                cloth::Method::Kernels);
    measure(n, 0, lab.branching, Order::GaussSeidel, false, "cloth.gauss-seidel.tiles", 0, cloth::Method::Tiles,
            kernels_ms);
  }
  return rows.take();
}

}  // namespace cloth
