// `vklab bench --lab machining --only 5.3`: the N-buffer against the Z-buffer (seed 003 §5.3,
// §5.4) on a flat, a cylindrical and a domed stock finished by a ball end: the N-buffer's kernel
// (a thread a brin, rays along the normal), every triangle tested or a hierarchy's (bvh.h), timed beside the Z-buffer's
// per-brin and fine engines, and how far each measure of the cut lies from the exact ball's along the normal, by slope:
// the N-buffer's lengths, the Z-buffer's vertical depths, and the Z-buffer's surface followed along the normal
// (lengths_from_heights).
#include "compute/machining/bench_seed.h"
#include "compute/machining/nbuffer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace machining {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Mean and largest |measure - exact| over the sampled brins either cuts, in bands of slope.
nlohmann::json errors_by_slope(const Stock& s, const std::vector<double>& measure, const std::vector<double>& exact) {
  const std::array<double, 6> edges = {0, 15, 30, 45, 60, 90};
  std::array<double, 5> sum{}, worst{};
  std::array<uint64_t, 5> count{};
  const auto rays = surface_rays(s);
  for (size_t b = 0; b < exact.size(); ++b) {
    if (std::isnan(exact[b]) || std::isnan(measure[b]) || (exact[b] >= 0 && measure[b] >= 0)) continue;  // uncut
    double slope = std::acos(std::clamp(double(rays[b].z), -1.0, 1.0)) * 180 / 3.14159265358979;
    size_t k = 0;
    while (k + 1 < count.size() && slope >= edges[k + 1]) ++k;
    double e = std::fabs(measure[b] - exact[b]);
    sum[k] += e, worst[k] = std::max(worst[k], e), ++count[k];
  }
  nlohmann::json bands = nlohmann::json::array();
  for (size_t k = 0; k < count.size(); ++k)
    if (count[k])
      bands.push_back({{"slope_deg", {edges[k], edges[k + 1]}},
                       {"brins", count[k]},
                       {"mean_abs", sum[k] / double(count[k])},
                       {"max_abs", worst[k]}});
  return bands;
}

}  // namespace

void bench_nbuffer(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const uint32_t n = options.quick ? 64 : 1024, positions = options.quick ? 600 : 20000;
  const float side = 64, r = 3, stepover = options.quick ? 4.0f : 1.0f;
  const Mesh ball = make_tool("sphere", 2 * r, options.quick ? 320 : 1984);
  uint32_t extensions = 0;  // whether the device could trace rays with its own structure
  vkEnumerateDeviceExtensionProperties(ctx.physical, nullptr, &extensions, nullptr);
  std::vector<VkExtensionProperties> offered(extensions);
  vkEnumerateDeviceExtensionProperties(ctx.physical, nullptr, &extensions, offered.data());
  const bool ray_query = std::any_of(offered.begin(), offered.end(),
                                     [](auto& e) { return std::string(e.extensionName) == "VK_KHR_ray_query"; });
  for (SurfaceShape shape : {SurfaceShape::Flat, SurfaceShape::Cylinder, SurfaceShape::Dome}) {
    Stock st;
    st.nx = st.ny = n, st.d = side / float(n - 1);
    // steep: the cylinder to 53 degrees at its edges, the dome to 70 at its corners
    st.surface = {shape, shape == SurfaceShape::Cylinder ? 40.0f : 48.0f, glm::vec2(0.5f * side)};
    const auto path = finishing_path(st.surface, st.top, side, r, stepover, positions, 0.5f);
    const uint32_t stride = std::max(1u, n / 256);  // the exact ball at 256 x 256 brins at most
    const auto exact = nbuffer_exact_ball(st, r, path, stride);
    const std::string name = surface_names()[size_t(shape)];
    const auto base = surface_heights(st);
    for (int k = 0; k < 4; ++k) {  // the N-buffer, with its hierarchy, then the Z-buffer's per-brin and fine engines
      const bool nbuffer = k <= 1, bvh = k == 1;
      const Engine eng = k == 3 ? Engine::Fine : Engine::PerBrin;
      const std::string pass = bvh ? "nbuffer.bvh" : nbuffer ? "nbuffer" : engine_names()[size_t(eng)];
      if (!BenchOptions::chosen(options.engines, pass)) continue;
      Stock s = st;
      s.nbuffer = nbuffer;
      BenchRow row{.pass = "machining." + pass,
                   .size = "5.3 " + name + " " + std::to_string(n) + "^2 " + std::to_string(path.size()) + "x" +
                           std::to_string(ball.triangles()),
                   .elements = uint64_t(path.size())};
      row.reference = {{"section", "5.3"},
                       {"surface", name},
                       {"surface_radius", shape == SurfaceShape::Flat ? 0.0f : st.surface.radius},
                       {"buffer", nbuffer ? "N-buffer: rays along the normal" : "Z-buffer: vertical rays"},
                       {"triangles_tested", bvh       ? "those of the hierarchy's leaves the ray's line reaches (bvh.h)"
                                            : nbuffer ? "every one, the bounding sphere's culling aside"
                                                      : "-"},
                       {"against", "the exact ball's cut along the normal, at every " + std::to_string(stride) +
                                       "th brin each way"}};
      // The N-buffer testing every triangle and the per-brin engine take 14 to 23 s a path on an
      // H200: they are timed over every 16th position, scaled, their values there checked bit for
      // bit against the hierarchy's and the fine engine's on the same positions; the whole path's
      // values (the errors below) are those engines'.
      const bool scaled = k == 0 || k == 2;  // the quick bench's too (its test)
      const auto twin = [&](const std::vector<Position>& positions) {
        auto m = std::make_unique<Machine>(ctx, s, ball, positions);
        m->set_nbuffer_bvh(k <= 1);
        ctx.submit_now([&](VkCommandBuffer cmd) {
          m->record(cmd, nbuffer ? Engine::PerBrin : Engine::Fine, 0, uint32_t(positions.size()));
        });
        return m;
      };
      std::vector<Position> timed_path;
      for (size_t i = 0; i < path.size(); i += scaled ? 16 : 1) timed_path.push_back(path[i]);
      Machine m(ctx, s, ball, timed_path);
      m.set_nbuffer_bvh(bvh);
      auto t = time_path(ctx, m, eng, timed_path.size(), uint32_t(ball.triangles()), options.quick);
      row.set_times(t, double(timed_path.size()) / double(path.size()));
      if (scaled) {
        const auto a = twin(timed_path)->heights(), b = m.heights();  // bit for bit (NaN included)
        const bool same = a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
        const char* by = nbuffer ? "the hierarchy's" : "the fine engine's";
        row.reference["scaled_from_positions"] = timed_path.size();
        row.reference["values_equal_on_those_positions"] = {{"to", by}, {"equal", same}};
        row.add_note("timed over every 16th position (%zu), scaled; %s %s values there", timed_path.size(),
                     same ? "equal to" : "UNLIKE", by);
        m.set_heights(twin(path)->heights());
      }
      auto h = m.heights();
      if (bvh)
        row.reference["ray_query"] = ray_query ? "VK_KHR_ray_query offered, not used" : "VK_KHR_ray_query not offered";
      if (nbuffer) {
        row.reference["length_error_by_slope"] = errors_by_slope(s, {h.begin(), h.end()}, exact);
      } else {
        std::vector<double> vertical(h.size());
        for (size_t b = 0; b < h.size(); ++b) vertical[b] = double(h[b]) - double(base[b]);
        row.reference["vertical_depth_error_by_slope"] = errors_by_slope(s, vertical, exact);
        row.reference["followed_along_normal_error_by_slope"] =
            errors_by_slope(s, lengths_from_heights(s, h, 4 * r), exact);
      }
      if (!options.quick)
        row.reference["report"] = {
            {"device", "Abecassis 2012 (SIMSURF) 5.3: no N-buffer timing; the LURPA prototype on a CPU"},
            {"tests", "N x M x T x P ray-triangle tests (5.1)"},
            {"lurpa_cpu", "a 5 x 5 mm zone in 10 min, deviations of the order of a micrometre (ch. 1)"}};
      rows.push_back(row);
    }
  }
}

}  // namespace machining
