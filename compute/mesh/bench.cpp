#include "compute/mesh/bench.h"
#include "compute/mesh/split.h"

#include "compute/measure/timer.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/renumber.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <thread>

namespace mesh {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// The median of the loop's runs over equal slices on `threads` threads (median_wall_ms: as few
// runs as give a stable figure), after one run that touches every page.
double cpu_ms(const std::function<void(size_t, size_t)>& loop, size_t count, unsigned threads) {
  auto run = [&] {
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < threads; ++k) pool.emplace_back(loop, count * k / threads, count * (k + 1) / threads);
    for (auto& th : pool) th.join();
  };
  run();
  return gpu::median_wall_ms(run, 5);
}

// A ball as the CPU reads it best: each target's members one after another (the GPU's
// columns would cost the CPU a cache line a member).
struct Packed {
  std::vector<size_t> start;  // targets + 1
  std::vector<uint32_t> members;
  explicit Packed(const Ball& b) : start{0} {
    for (uint32_t v = 0; v < b.degree.size(); ++v) {
      for (uint32_t k = 0; k < b.degree[v]; ++k) members.push_back(b.member(v, k));
      start.push_back(members.size());
    }
  }
};

struct Case {
  std::string pass, size, order;
  GpuMesh* g;
  const GpuMesh::Kernel* kernel;
  std::function<void(size_t, size_t)> cpu;  // the same loop on a slice of the entities
  double bytes, flops;                      // compulsory traffic and arithmetic of one run
};

BenchRow run(gpu::Context& ctx, const BenchOptions& o, const Case& c) {
  auto tm = gpu::time_gpu(
      ctx, [&](VkCommandBuffer cmd) { c.g->record(cmd, *c.kernel); }, o.quick ? 3 : 15, o.quick ? 5 : 200);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  size_t n = c.kernel->count;
  BenchRow row{.pass = c.pass + " " + c.order,
               .size = c.size,
               .elements = n,
               .repeats = tm.repeats,
               .median_ms = tm.median_ms,
               .min_ms = tm.min_ms,
               .bytes = c.bytes,
               .flops = c.flops,
               .reference = {{"loop", short_name(c.kernel->loop)},
                             {"order", c.order},
                             {"dispatches", c.kernel->parts.size()},
                             {"elements_per_s", n / (tm.median_ms * 1e-3)},
                             {"device_saxpy_gbps", o.saxpy_gbps}}};
  if (BenchOptions::chosen(o.engines, "cpu")) {  // `--engines gpu`: the GPU alone (a faster run)
    const std::string key = "mesh/" + row.pass + "/" + c.size + "/cpu-";
    double one = o.cpu_ms(key + "1", [&] { return cpu_ms(c.cpu, n, 1); });
    double all = o.cpu_ms(key + "all", [&] { return cpu_ms(c.cpu, n, threads); });
    row.reference.update({{"cpu_single_thread_ms", one},
                          {"gain_over_cpu", one / tm.median_ms},
                          {"cpu_threads", threads},
                          {"cpu_threads_ms", all},
                          {"gain_over_cpu_threads", all / tm.median_ms}});
  }
  return row;
}

// One way of summing something of each element at its vertices (GMlib manual §2.5's three):
// two kernels run one after the other, timed as a pair, and the compulsory traffic of the pair.
struct WriteWay {
  const char* name;  // gather, atomics, colouring
  const char* method;
  const GpuMesh::Kernel *first, *second;
  double bytes;
};

// The ways timed on the same mesh, each row checked against the first way's sums (the field
// `sums`, at the vertices): the largest difference, relative to the largest sum.
void accumulate(gpu::Context& ctx, const BenchOptions& o, GpuMesh& g, const std::string& size, const std::string& what,
                const std::string& sums, const std::vector<WriteWay>& ways, BenchRows& rows) {
  std::vector<double> first_sums;
  for (const WriteWay& w : ways) {
    auto tm = gpu::time_gpu(
        ctx,
        [&](VkCommandBuffer cmd) {
          g.record(cmd, *w.first);
          g.record(cmd, *w.second);
        },
        o.quick ? 3 : 15, o.quick ? 5 : 200);
    std::vector<double> got = g.download(sums);
    if (first_sums.empty()) first_sums = got;
    double largest = 0, diff = 0;
    for (size_t v = 0; v < got.size(); ++v)
      largest = std::max(largest, std::abs(first_sums[v])), diff = std::max(diff, std::abs(got[v] - first_sums[v]));
    uint32_t elements = w.second->count;
    BenchRow row{.pass = std::string("mesh.accumulate.") + w.name,
                 .size = size,
                 .elements = elements,
                 .repeats = tm.repeats,
                 .median_ms = tm.median_ms,
                 .min_ms = tm.min_ms,
                 .bytes = w.bytes,
                 .reference = {{"what", what},
                               {"method", w.method},
                               {"compared_with", std::string("mesh.accumulate.") + ways[0].name + " on the same mesh"},
                               {"max_difference_relative", largest > 0 ? diff / largest : diff},
                               {"elements_per_s", elements / (tm.median_ms * 1e-3)}}};
    if (!w.second->colours.empty()) {
      uint32_t colours = uint32_t(w.second->colours.size() - 1);
      row.reference.update({{"colours", colours}, {"launches", colours + 1}});
      row.add_note("%u colours", colours);
    }
    rows.push_back(row);
  }
}

std::string size_name(uint32_t n, size_t triangles) {
  return std::to_string(n) + "x" + std::to_string(n) + " grid, " + std::to_string(triangles) + " triangles";
}

// The seed's surface kernels on a bumpy grid of each size, its vertices in grid order,
// shuffled, then renumbered along a Hilbert curve: the rows compare the three numberings (up
// to 2048², where they have told their story; 4096² shows the grid order at full bandwidth).
void surfaces(gpu::Context& ctx, const BenchOptions& o, BenchRows& rows) {
  for (uint32_t n : o.quick ? std::vector<uint32_t>{32, 64} : std::vector<uint32_t>{1024, 2048, 4096}) {
    const Mesh grid = bumpy_grid(n);
    for (const char* order : {"grid", "shuffled", "hilbert"}) {
      if (std::string(order) != "grid" && n > 2048) continue;
      Mesh m = grid;
      if (std::string(order) != "grid") shuffle(m, 7);
      if (std::string(order) == "hilbert") renumber_hilbert(m);
      GpuMesh g(ctx, m);
      g.add_field("Bar", Kind::Triangles, {Scalar::Float, 4});
      g.add_field("Mean", Kind::Vertices, {Scalar::Float, 4});
      auto down = g.compile(Kind::Triangles, "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;");
      auto up = g.compile(Kind::Vertices,
                          "vec3 s = vec3(0.0);\nfor (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
                          "VerMean.xyz = s / float(VerTriDeg);");
      const Elements& t = g.elements(Kind::Triangles);
      const Ball& b = g.upward(Kind::Vertices, Kind::Triangles);
      Packed ball(b);
      size_t nt = t.count(), nv = m.vertices();
      std::vector<float> bar(3 * nt), mean(3 * nv);
      if (std::string(order) == "grid") {  // §2.3's direct kernel: VerCrd, VerVitesse, VerDirection, one vertex each
        g.add_field("Vitesse", Kind::Vertices, {Scalar::Float, 1});
        g.add_field("Direction", Kind::Vertices, {Scalar::Float, 4});
        std::vector<double> speed(nv, 1e-6), dir(4 * nv, 0.5);
        g.upload("Vitesse", speed), g.upload("Direction", dir);
        auto direct = g.compile(Kind::Vertices, "VerCrd = VerCrd + VerVitesse * VerDirection.xyz;");
        std::vector<float> crd(4 * nv, 1.0f), fspeed(nv, 1e-6f), fdir(4 * nv, 0.5f);
        rows.push_back(run(ctx, o,
                           {"mesh.direct (Ver)", size_name(n, nt), order, &g, direct.get(),
                            [&](size_t lo, size_t hi) {
                              for (size_t v = lo; v < hi; ++v)
                                for (int c = 0; c < 3; ++c) crd[4 * v + c] += fspeed[v] * fdir[4 * v + c];
                            },
                            52.0 * nv, 6.0 * nv}));
      }
      std::string size = size_name(n, nt);
      // Compulsory traffic (each buffer crossing memory once; shared vertices from cache):
      // down, TriVer and TriBar a triangle and VerCrd a vertex; up, the ball's slots up to
      // the degree (the kernel reads no padding), the degree, VerMean a vertex and TriBar a
      // triangle.
      rows.push_back(run(
          ctx, o,
          {"mesh.down (Tri)", size, order, &g, down.get(),
           [&](size_t lo, size_t hi) {
             for (size_t f = lo; f < hi; ++f)
               for (int c = 0; c < 3; ++c)
                 bar[3 * f + c] = float(
                     (m.xyz[3 * t.v[3 * f] + c] + m.xyz[3 * t.v[3 * f + 1] + c] + m.xyz[3 * t.v[3 * f + 2] + c]) / 3);
           },
           32.0 * nt + 16.0 * nv, 9.0 * nt}));
      rows.push_back(run(ctx, o,
                         {"mesh.up (Ver)", size, order, &g, up.get(),
                          [&](size_t lo, size_t hi) {
                            for (size_t v = lo; v < hi; ++v) {
                              float s[3] = {0, 0, 0};
                              for (size_t j = ball.start[v]; j < ball.start[v + 1]; ++j)
                                for (int c = 0; c < 3; ++c) s[c] += bar[3 * ball.members[j] + c];
                              for (int c = 0; c < 3; ++c) mean[3 * v + c] = s[c] / float(b.degree[v]);
                            }
                          },
                          4.0 * ball.members.size() + nv * (4.0 + 16) + 16.0 * nt, 21.0 * nv}));
      if (std::string(order) != "grid") continue;
      g.add_field("Area", Kind::Triangles, {Scalar::Float, 1});
      g.add_field("Star", Kind::Vertices, {Scalar::Float, 1});
      auto area = g.compile(Kind::Triangles,
                            "TriArea = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
      auto gather = g.compile(
          Kind::Vertices, "float a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k];\nVerStar = a;");
      auto clear = g.compile(Kind::Vertices, "VerStar = 0.0;");
      const std::string star_area =
          "float a = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n";
      auto coloured =
          g.compile(Kind::Triangles, star_area + "for (int c = 0; c < 3; ++c) Star_[TriVer[c]] += a;", 1, true);
      // gather: areas (TriVer, Area a triangle, VerCrd a vertex), then the ball (slots, degree,
      // Star a vertex, Area a triangle); atomics: clear Star, then TriVer a triangle, VerCrd and
      // Star read and written a vertex; colouring: the same and the order (TriByColour).
      std::vector<WriteWay> ways = {{"gather", "per element, then gather through the padded ball", area.get(),
                                     gather.get(),
                                     20.0 * nt + 16.0 * nv + 4.0 * ball.members.size() + nv * 8.0 + 4.0 * nt}};
      std::unique_ptr<GpuMesh::Kernel> scatter;
      if (ctx.atomic_float_add) {
        scatter = g.compile(Kind::Triangles, star_area + "for (int c = 0; c < 3; ++c) atomicAdd(Star_[TriVer[c]], a);");
        ways.push_back({"atomics", "clear, then scatter with atomicAdd on floats", clear.get(), scatter.get(),
                        4.0 * nv + 16.0 * nt + 24.0 * nv});
      }
      ways.push_back({"colouring", "clear, then scatter colour by colour with a plain +=, a barrier between colours",
                      clear.get(), coloured.get(), 4.0 * nv + 20.0 * nt + 24.0 * nv});
      accumulate(ctx, o, g, size, "triangle areas summed at their vertices", "Star", ways, rows);
    }
  }
}

void volumes(gpu::Context& ctx, const BenchOptions& o, BenchRows& rows) {
  for (uint32_t n : o.quick ? std::vector<uint32_t>{4} : std::vector<uint32_t>{64, 128}) {
    const Mesh kuhn = cube(n, Kind::Tetrahedra, 0.2, false), mirror = cube(n, Kind::Tetrahedra, 0.2, true);
    // Kuhn's cube (every inner ball 24 tetrahedra) in three numberings, then the mirrored cube
    // (balls of 16 and 48, padded to 64) along the curve and by degree classes (§2.4).
    for (auto [order, mirrored] :
         {std::pair{"grid", false}, {"shuffled", false}, {"hilbert", false}, {"hilbert", true}, {"by degree", true}}) {
      Mesh m = mirrored ? mirror : kuhn;
      if (std::string(order) != "grid") shuffle(m, 7);
      if (std::string(order) == "hilbert") renumber_hilbert(m);
      if (std::string(order) == "by degree") renumber_hilbert(m, Kind::Tetrahedra);
      GpuMesh g(ctx, m);
      g.add_field("Vol", Kind::Tetrahedra, {Scalar::Float, 1});
      g.add_field("Dual", Kind::Vertices, {Scalar::Float, 1});
      auto down = g.compile(Kind::Tetrahedra,
                            "TetVol = dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], "
                            "TetVerCrd[3] - TetVerCrd[0])) / 6.0;");
      auto up =
          g.compile(Kind::Vertices,
                    "float v = 0.0;\nfor (uint k = 0u; k < VerTetDeg; ++k) v += VerTetVol[k];\nVerDual = 0.25 * v;");
      // GMlib manual §2.4: the same gather over the padded ball, a loop of constant length.
      auto up_padded =
          g.compile(Kind::Vertices,
                    "float v = 0.0;\nfor (uint k = 0u; k < VerTetDegMax; ++k) v += VerTetVol[k];\nVerDual = 0.25 * v;");
      const Elements& t = g.elements(Kind::Tetrahedra);
      const Ball& b = g.upward(Kind::Vertices, Kind::Tetrahedra);
      Packed ball(b);
      size_t nt = t.count(), nv = m.vertices();
      std::vector<float> vol(nt), dual(nv);
      std::string size =
          std::to_string(n) + "^3 cube" + (mirrored ? " (mirrored)" : "") + ", " + std::to_string(nt) + " tetrahedra";
      auto P = [&](uint32_t v) { return glm::vec3(m.xyz[3 * v], m.xyz[3 * v + 1], m.xyz[3 * v + 2]); };
      rows.push_back(run(
          ctx, o,
          {"mesh.down (Tet)", size, order, &g, down.get(),
           [&](size_t lo, size_t hi) {
             for (size_t e = lo; e < hi; ++e) {
               glm::vec3 a = P(t.v[4 * e]);
               vol[e] = glm::dot(P(t.v[4 * e + 1]) - a, glm::cross(P(t.v[4 * e + 2]) - a, P(t.v[4 * e + 3]) - a)) / 6;
             }
           },
           24.0 * nt + 16.0 * nv, 30.0 * nt}));
      auto gather = [&](size_t lo, size_t hi) {
        for (size_t v = lo; v < hi; ++v) {
          float s = 0;
          for (size_t j = ball.start[v]; j < ball.start[v + 1]; ++j) s += vol[ball.members[j]];
          dual[v] = 0.25f * s;
        }
      };
      const double up_bytes = 4.0 * ball.members.size() + nv * (4.0 + 4) + 4.0 * nt;
      BenchRow run_time =
          run(ctx, o, {"mesh.up (Ver<-Tet)", size, order, &g, up.get(), gather, up_bytes, double(nv) * 24});
      run_time.reference["loop"] = "run-time length (VerTetDeg)";
      // Padded: every slot of the class read, the empty ones too (their bytes are not compulsory).
      BenchRow padded = run(
          ctx, o, {"mesh.up padded (Ver<-Tet)", size, order, &g, up_padded.get(), gather, up_bytes, double(nv) * 24});
      padded.reference["loop"] = "padded (VerTetDegMax, a constant a degree class)";
      padded.reference["run_time_length_ms"] = run_time.median_ms;
      padded.add_note("x%.2f the run-time length loop; GMlib manual: 10 to 100 times faster",
                      run_time.median_ms / padded.median_ms);
      rows.push_back(std::move(run_time));
      rows.push_back(std::move(padded));
      if (std::string(order) != "hilbert" || mirrored) continue;
      auto clear = g.compile(Kind::Vertices, "VerDual = 0.0;");
      const std::string quarter =
          "float v = 0.25 * dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], "
          "TetVerCrd[3] - TetVerCrd[0])) / 6.0;\n";
      auto coloured =
          g.compile(Kind::Tetrahedra, quarter + "for (int c = 0; c < 4; ++c) Dual_[TetVer[c]] += v;", 1, true);
      std::vector<WriteWay> ways = {{"gather", "per element, then gather through the padded ball", down.get(), up.get(),
                                     24.0 * nt + 16.0 * nv + 4.0 * ball.members.size() + nv * 8.0 + 4.0 * nt}};
      std::unique_ptr<GpuMesh::Kernel> scatter;
      if (ctx.atomic_float_add) {
        scatter = g.compile(Kind::Tetrahedra, quarter + "for (int c = 0; c < 4; ++c) atomicAdd(Dual_[TetVer[c]], v);");
        ways.push_back({"atomics", "clear, then scatter with atomicAdd on floats", clear.get(), scatter.get(),
                        4.0 * nv + 20.0 * nt + 24.0 * nv});
      }
      ways.push_back({"colouring", "clear, then scatter colour by colour with a plain +=, a barrier between colours",
                      clear.get(), coloured.get(), 4.0 * nv + 24.0 * nt + 24.0 * nv});
      accumulate(ctx, o, g, size, "a quarter of each tetrahedron's volume summed at its vertices (hilbert order)",
                 "Dual", ways, rows);
    }
  }
}

// GMlib's sample kernels as the lab's examples hold them ("GMlib: ..." and its volumes), on the
// cube of 128³ cells in the generator's order — the mesh the comparison with GMlib reads from a
// .meshb (docs/PERF.md) — each kernel timed alone as the lab launches it (its workgroup size
// tuned by its first launches, GmlLaunchKernel's way). Compulsory traffic: each table and field
// crossing memory once, a ball's slots up to the degree, the vertices from cache.
void gmlib(gpu::Context& ctx, const BenchOptions& o, BenchRows& rows) {
  uint32_t n = o.quick ? 4 : 128;
  Mesh m = cube(n, Kind::Tetrahedra, 0.25);
  GpuMesh g(ctx, m);
  const double nv = double(m.vertices()), nt = double(g.count(Kind::Tetrahedra)), slots = 4 * nt;
  const std::string size = std::to_string(n) + "^3 cube, " + std::to_string(size_t(nt)) + " tetrahedra";
  struct Sample {
    const char* example;
    std::vector<std::pair<const char*, double>> kernels;  // GMlib's kernel (its .cl) and its bytes
  };
  const double quality = 16 * nt + 16 * nv + 4 * nt;
  const std::vector<Sample> samples = {
      {"tetrahedra: volumes",
       {{"volumes, Tet (down)", 16 * nt + 16 * nv + 4 * nt},
        {"volumes, Ver<-Tet (dual volume)", 4 * slots + 4 * nv + 4 * nt + 4 * nv}}},
      {"GMlib: mesh quality", {{"MeshQuality compute_quality.cl (Tet)", quality}}},
      {"GMlib: gpu bandwidth",
       {{"GpuBandwidth direct_vertices.cl (Ver)", 32 * nv},
        {"GpuBandwidth direct_tets.cl (Tet)", 32 * nt},
        {"GpuBandwidth indirect_tets.cl (Tet)", 32 * nt + 16 * nv},
        {"GpuBandwidth vertices_ball.cl (Ver)", 4 * slots + 4 * nv + 16 * nt + 16 * nv}}},
      {"GMlib: node smoothing",
       {{"NodeSmoothing scatter.cl (Tet)", 16 * nt + 16 * nv + 64 * nt},
        {"NodeSmoothing gather.cl (Ver)", 4 * slots + 4 * nv + 16 * slots + 32 * nv + 4 * nv},
        {"NodeSmoothing quality.cl (Tet)", quality}}}};
  for (const Sample& s : samples) {
    auto kernels = compile_text(g, mesh_examples().at(s.example).text);
    if (kernels.size() != s.kernels.size()) throw std::logic_error(std::string("bench: ") + s.example);
    ctx.submit_now([&](VkCommandBuffer cmd) {  // one run of all: what each kernel reads is there
      for (auto& k : kernels) g.record(cmd, *k);
    });
    for (size_t i = 0; i < kernels.size(); ++i) {
      const GpuMesh::Kernel& k = *kernels[i];
      // Warmed up (and the workgroup size tuned) as every row, and timed with its barriers one
      // launch a submission; then as the lab runs launches, one after the other in a submission,
      // each timed as GMlib times its events: the dispatches alone, between the barriers.
      int repeats = o.quick ? 3 : 200;
      auto tm = gpu::time_gpu(
          ctx, [&](VkCommandBuffer cmd) { g.record(cmd, k); }, repeats, o.quick ? 5 : 200);
      gpu::Profiler prof(ctx, uint32_t(repeats));
      std::vector<double> ms;
      if (prof.supported()) {
        ctx.submit_now([&](VkCommandBuffer cmd) {
          prof.begin_frame(cmd);
          for (int r = 0; r < repeats; ++r) {
            GpuMesh::TimedScope scope{prof, "launch"};
            g.record(cmd, k, -1, &scope);
          }
        });
        prof.resolve();
        for (auto& span : prof.spans()) ms.push_back(span.end_ms - span.start_ms);
      }
      nlohmann::json tries = nlohmann::json::object();  // each size's fastest try, ms
      for (auto& [group, ms] : k.tuning.times()) tries[std::to_string(group)] = ms;
      BenchRow row{.pass = std::string("mesh.gmlib ") + s.kernels[i].first,
                   .size = size,
                   .elements = k.count,
                   .repeats = int(ms.size()),
                   .median_ms = gpu::median(ms),
                   .min_ms = ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end()),
                   .bytes = s.kernels[i].second,
                   .reference = {{"example", s.example},
                                 {"kernel", i + 1},
                                 {"loop", short_name(k.loop)},
                                 {"work_group", k.group_size()},
                                 {"work_group_tries_ms", tries},
                                 {"timed",
                                  "launch after launch in one submission, each its dispatches between the barriers "
                                  "around them (GMlib: its events' START to END)"},
                                 {"one_launch_a_submission_with_barriers_median_ms", tm.median_ms},
                                 {"one_launch_a_submission_with_barriers_min_ms", tm.min_ms},
                                 {"work_group_rounds", k.tuning.rounds()},
                                 {"compared_with", "GMlib's own run of this sample kernel (docs/PERF.md)"},
                                 {"elements_per_s", k.count / (tm.median_ms * 1e-3)},
                                 {"device_saxpy_gbps", o.saxpy_gbps}}};
      row.add_note("work group %u", k.group_size());
      rows.push_back(row);
    }
    g.take_status();
  }
}

// GMlib's several instances (split.h): Kuhn's cube of tetrahedra smoothed on 1, 2 and 4 device
// contexts, the halos carried by the host between steps; on as many GPUs where the machine has
// them, else instances of one. A row's time is a step's, wall clock (kernels, packing, exchange);
// every run's values are checked equal to one device's.
void split(gpu::Context& ctx, const BenchOptions& o, BenchRows& rows) {
  const uint32_t n = o.quick ? 8 : 96, steps = o.quick ? 10 : 100;
  const Mesh m = cube(n, Kind::Tetrahedra, 0.2, false);
  std::vector<float> u0(m.vertices());
  for (size_t v = 0; v < u0.size(); ++v) u0[v] = float(std::sin(0.001 * double(v)));
  const auto graph = vertex_graph(m);
  std::vector<float> reference;
  for (uint32_t devices : {1u, 2u, 4u}) {
    auto contexts = devices == 1 ? SplitContexts{} : split_contexts(ctx, devices);
    auto run = smooth_split(devices == 1 ? std::vector<gpu::Context*>{&ctx} : contexts.all(), m, u0, steps);
    if (devices == 1) reference = run.u;
    const double step_ms = run.wall_ms / steps;
    BenchRow row{.pass = "mesh.split",
                 .size = std::to_string(n) + "^3 cube, " + std::to_string(m.vertices()) + " vertices, " +
                         (devices == 1 ? std::string("1 device") : contexts.where()),
                 .elements = m.vertices(),
                 .repeats = int(steps),
                 .median_ms = step_ms,
                 .min_ms = step_ms};
    // a step reads each owned vertex's row, weight and neighbours' values and writes its value
    row.bytes = 4.0 * (2.0 * double(m.vertices()) + 2.0 * double(graph.next.size()) + 2.0 * double(m.vertices()));
    row.flops = double(graph.next.size() + 2 * m.vertices());
    row.reference = {
        {"source", "Maréchal 2020, GMlib: several instances"}, {"devices", devices},
        {"gpus", devices == 1 ? 1u : contexts.gpus},           {"halo_values_a_step", run.halo_values},
        {"exchange_ms_a_step", run.exchange_ms / steps},       {"equal_to_one_device", run.u == reference}};
    row.add_note("%llu halo values a step, exchanged in %.3f ms; %s", (unsigned long long)run.halo_values,
                 run.exchange_ms / steps,
                 run.u == reference ? "as one device, bit for bit" : "DIFFERS from one device");
    rows.push_back(std::move(row));
  }
}

}  // namespace

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  for (auto& name : options.only)
    if (name != "surfaces" && name != "volumes" && name != "gmlib" && name != "split")
      throw std::invalid_argument("bench: unknown configuration '" + name +
                                  "' (mesh: surfaces, volumes, gmlib, split)");
  for (auto& name : options.engines)
    if (name != "gpu" && name != "cpu")
      throw std::invalid_argument("bench: unknown engine '" + name + "' (mesh: gpu, cpu)");
  if (!BenchOptions::chosen(options.engines, "gpu"))
    throw std::invalid_argument("bench: the mesh bench times the GPU always: --engines gpu or gpu,cpu");
  BenchRows rows(options);
  if (BenchOptions::chosen(options.only, "surfaces")) surfaces(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "volumes")) volumes(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "gmlib")) gmlib(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "split")) split(ctx, options, rows);
  return rows.take();
}

}  // namespace mesh
