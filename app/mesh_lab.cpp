// The mesh lab's knobs, editor, panel and dump (seed 004, GMlib). Math: compute/mesh/;
// picture: render/mesh_view.
#include "gpu/bandwidth.h"
#include "lab.h"
#include "mesh/kernels.h"
#include "mesh/renumber.h"
#include "mesh_view.h"
#include "npy.h"

#include <imgui.h>

#include <chrono>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

using namespace mesh;

namespace {

// Kernels: sections separated by a line "---", each starting with "// loop: Tri" or
// "// loop: Ver"; fields are created from the names the bodies use (seed's naming rule).
const std::map<std::string, std::pair<std::string, std::string>> kExamples = {
    {"smoothing",
     {"// loop: Tri  (barycentres)\n"
      "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
      "---\n"
      "// loop: Ver  (each vertex moves halfway to the mean barycentre of its ball)\n"
      "vec3 s = vec3(0.0);\n"
      "for (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
      "vec3 target = s / float(VerTriDeg);\n"
      "VerMove.x = length(target - VerCrd);\n"
      "VerCrd = mix(VerCrd, target, 0.5);\n",
      "Move"}},
    {"areas",
     {"// loop: Tri  (area of each triangle)\n"
      "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n",
      "Area"}},
    {"star areas",
     {"// loop: Tri  (areas, then gathered at the vertices: scatter by gathering)\n"
      "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
      "---\n"
      "// loop: Ver\n"
      "float a = 0.0;\n"
      "for (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\n"
      "VerStar.x = a;\n",
      "Star"}},
    {"star areas (atomics)",
     {"// loop: Ver  (clear, then scatter with float atomics: needs shaderBufferFloat32AtomicAdd)\n"
      "VerStar.x = 0.0;\n"
      "---\n"
      "// loop: Tri\n"
      "float a = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
      "atomicAdd(Star_[TriVer.x].x, a);\n"
      "atomicAdd(Star_[TriVer.y].x, a);\n"
      "atomicAdd(Star_[TriVer.z].x, a);\n",
      "Star"}},
    {"mean height per triangle",
     {"// loop: Tri  (chapter 3: the mean of the vertices' heights)\n"
      "TriMean.x = (TriVerCrd[0].z + TriVerCrd[1].z + TriVerCrd[2].z) / 3.0;\n",
      "Mean"}}};

std::vector<std::string> example_names() {
  std::vector<std::string> n;
  for (auto& [k, v] : kExamples) n.push_back(k);
  return n;
}

struct Section {
  Kind loop = Kind::Triangles;
  std::string body;
  int first_line = 1;  // in the editor
};

std::vector<Section> split(const std::string& text) {
  std::vector<Section> out(1);
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line == "---") {
      out.push_back({});
      out.back().first_line = n + 1;
      continue;
    }
    static const std::regex loop_re("\\s*//\\s*loop:\\s*(Tri|Ver)\\b.*");
    std::smatch m;
    if (out.back().body.empty() && std::regex_match(line, m, loop_re))
      out.back().loop = m[1] == "Ver" ? Kind::Vertices : Kind::Triangles;
    out.back().body += line + "\n";
  }
  return out;
}

// Fields a body names: TriX / VerX (X there), TriVerX (X at vertices), VerTriX (X at triangles).
std::map<std::string, Kind> fields_named(const std::string& text) {
  std::map<std::string, Kind> f;
  static const std::regex word("\\b(Tri|Ver)(Ver|Tri)?([A-Z][A-Za-z0-9]*)\\b");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it) {
    std::string a = (*it)[1], b = (*it)[2], name = (*it)[3];
    if (name == "Crd" || name == "Deg" || name == "Ver" || name == "Tri") continue;
    std::string at = b.empty() ? a : b;
    f[name] = at == "Ver" ? Kind::Vertices : Kind::Triangles;
  }
  return f;
}

Mesh bumpy_grid(uint32_t n) {
  Mesh m;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      double u = double(x) / (n - 1), v = double(y) / (n - 1);
      double j = x > 0 && y > 0 && x + 1 < n && y + 1 < n ? 1.0 : 0.0;
      m.xyz.insert(m.xyz.end(), {u + j * jitter(rng) / n, v + j * jitter(rng) / n,
                                 0.15 * std::sin(6 * u) * std::cos(5 * v) + j * 0.05 * jitter(rng)});
      m.vref.push_back(0);
    }
  Elements t{Kind::Triangles, {}, {}};
  for (uint32_t y = 0; y + 1 < n; ++y)
    for (uint32_t x = 0; x + 1 < n; ++x) {
      uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      t.v.insert(t.v.end(), {a, b, c, b, d, c});
      t.ref.insert(t.ref.end(), {1, 1});
    }
  m.elements.push_back(t);
  return m;
}

class MeshLab : public Lab {
 public:
  MeshLab() {
    params_.add_text("mesh_file", "", ".mesh / .meshb file: its triangles, or the boundary faces of its tetrahedra; "
                                      "empty: a generated bumpy grid")
        .rebuild = true;
    params_.add_int("grid_size", 64, 4, 4096, "generated grid: vertices along each side").rebuild = true;
    params_.add_choice("renumber", {"as is", "hilbert", "shuffled"}, "as is",
                       "vertex and element order: as generated or read, along a Hilbert curve, or at random")
        .rebuild = true;
    params_.add_text("sol_file", "", ".sol / .solb: its first field at vertices or triangles becomes the field 'Sol'")
        .rebuild = true;
    params_.add_choice("example", example_names(), "smoothing", "example kernels from the seed").rebuild = true;
    params_.add_text("kernel_file", "", "kernel source (sections separated by '---', each '// loop: Tri' or "
                                        "'// loop: Ver'); empty: the example")
        .rebuild = true;
    params_.add_int("runs_per_frame", 1, 0, 100, "kernel runs a frame (0 pauses)");
    params_.add_text("color_field", "", "field drawn with the colour map (empty: the example's)");
    params_.add_bool("wireframe", true, "draw the edges");
  }

  std::string name() const override { return "mesh"; }
  std::string title() const override { return "Kernels on unstructured meshes (seed 004, GMlib)"; }

  void build(gpu::Context& ctx) override {
    Mesh m = params_.text("mesh_file").empty() ? bumpy_grid(uint32_t(params_.get_int("grid_size")))
                                               : read_mesh(params_.text("mesh_file"));
    std::string text = kExamples.at(params_.choice("example")).first;
    if (!params_.text("kernel_file").empty()) {
      std::ifstream f(params_.text("kernel_file"));
      if (!f) throw ParamError(params_.text("kernel_file") + ": cannot read the kernel file");
      text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    if (!m.find(Kind::Triangles) && m.find(Kind::Tetrahedra) && m.dim == 3)  // a volume: draw and run on its boundary
      m.elements.push_back(extract_faces(*m.find(Kind::Tetrahedra), m.xyz).boundary);
    if (params_.choice("renumber") == "hilbert") renumber_hilbert(m);
    if (params_.choice("renumber") == "shuffled") shuffle(m, 1);
    if (!params_.text("sol_file").empty() && params_.choice("renumber") != "as is")
      throw ParamError("a solution file follows the file's numbering: renumber 'as is' with --sol");
    auto g = std::make_unique<GpuMesh>(ctx, m);
    std::vector<float> sol;
    Kind sol_at = Kind::Vertices;
    if (!params_.text("sol_file").empty()) {
      auto s = read_solution(params_.text("sol_file"));
      auto it = std::find_if(s.fields.begin(), s.fields.end(),
                             [](auto& f) { return f.at == Kind::Vertices || f.at == Kind::Triangles; });
      if (it == s.fields.end()) throw ParamError(params_.text("sol_file") + ": no solution at vertices or triangles");
      size_t n = it->at == Kind::Vertices ? g->vertices() : g->triangles(), w = it->width(s.dim);
      if (it->count(s.dim) != n)
        throw ParamError(params_.text("sol_file") + ": " + std::to_string(it->count(s.dim)) + " values for " +
                         std::to_string(n) + " entities");
      sol.assign(4 * n, 0.0f);
      for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < std::min<size_t>(w, 4); ++c) sol[4 * i + c] = float(it->values[i * w + c]);
      sol_at = it->at;
    }
    auto kernels = compile(*g, text);  // throws: the previous mesh and kernels stay
    if (!view_ || ctx_ != &ctx) view_ = std::make_unique<render::MeshView>(ctx);
    ctx_ = &ctx;
    mesh_ = std::move(m);
    gpu_ = std::move(g);
    sol_ = std::move(sol);
    sol_at_ = sol_at;
    kernels_ = std::move(kernels);
    set_editor(text);
    error_.clear();
    frame_camera();
    restart();
    params_.rebuild_pending = false;
  }

  void restart() override {
    std::vector<float> crd(4 * mesh_.vertices(), 0.0f);
    for (size_t v = 0; v < mesh_.vertices(); ++v)
      for (int c = 0; c < mesh_.dim; ++c) crd[4 * v + c] = float(mesh_.xyz[v * mesh_.dim + c]);
    gpu_->set_coordinates(crd);
    for (auto& n : gpu_->field_names()) gpu_->add_field(n, gpu_->field_at(n));
    if (!sol_.empty()) {
      gpu_->add_field("Sol", sol_at_);
      gpu_->upload("Sol", sol_);
    }
    steps_done_ = 0;
    range_frames_ = 0;
  }

  uint32_t steps_per_frame() const override { return uint32_t(params_.get_int("runs_per_frame")); }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    for (uint32_t s = 0; s < steps; ++s)
      for (size_t k = 0; k < kernels_.size(); ++k) {
        gpu::Profiler::Scope scope(prof, cmd, "mesh.kernel" + std::to_string(k + 1) +
                                                  (kernels_[k]->loop == Kind::Vertices ? ".ver" : ".tri"),
                                   0, 0);
        gpu_->record(cmd, *kernels_[k]);
      }
    steps_done_ += steps;
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope scope(prof, cmd, "mesh.draw", 0, 0);
    if (range_frames_-- <= 0) update_range();
    render::MeshStyle st = style_;
    st.wireframe = params_.flag("wireframe");
    std::string f = color_field();
    const gpu::Buffer* field = gpu_->has_field(f) ? &gpu_->field_buffer(f) : nullptr;
    st.has_field = field != nullptr;
    st.field_at_vertices = field && gpu_->field_at(f) == Kind::Vertices;
    view_->draw(cmd, frame, gpu_->coordinate_buffer(), gpu_->triangle_buffer(), uint32_t(gpu_->triangles()), field, st,
                camera_);
  }

  void pointer(const Pointer& p, const render::Frame&) override {
    orbit_.update(camera_, p);
  }

  void ui() override {
    ImGui::Text("%zu vertices, %zu triangles; ball: degree <= %u, padded to %u", gpu_->vertices(), gpu_->triangles(),
                gpu_->ball().max_degree, gpu_->ball().padded);
    ImGui::Text("%s, fp64: %s", ctx_->info.name.c_str(), ctx_->info.fp64 ? "yes" : "no");  // GmlListGPU, GmlCheckFP64
    ImGui::Text("colour: %s.x  min %.5g  max %.5g  sum %.6g  L2 %.6g", color_field().c_str(), stats_.min, stats_.max,
                stats_.sum, stats_.l2);
    if (ImGui::TreeNode("memory (GmlGetMemoryUsage)")) {
      size_t total = 0;
      for (auto& [n, b] : gpu_->memory()) ImGui::Text("%-16s %10.3f MiB", n.c_str(), b / 1048576.0), total += b;
      ImGui::Text("%-16s %10.3f MiB", "total", total / 1048576.0);
      ImGui::TreePop();
    }
    if (ImGui::TreeNode("transfers (GmlGetMemoryTransfer)")) {
      for (auto& [n, t] : gpu_->transfers())
        ImGui::Text("%-16s up %9.3f MiB  down %9.3f MiB", n.c_str(), t.first / 1048576.0, t.second / 1048576.0);
      ImGui::TreePop();
    }
    ImGui::TextDisabled("kernel (sections: '---'; '// loop: Tri' or '// loop: Ver'):");
    ImGui::InputTextMultiline("##kernel", editor_.data(), editor_.size(), ImVec2(ImGui::GetContentRegionAvail().x, 220));
    if (ImGui::Button("Compile")) {
      try {
        auto k = compile(*gpu_, editor_.data());
        kernels_ = std::move(k);
        error_.clear();
      } catch (const std::exception& e) {
        error_ = e.what();  // the last good kernels keep running
      }
    }
    if (!error_.empty()) ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", error_.c_str());
    ImGui::TextDisabled("right drag: orbit; wheel: zoom");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    nlohmann::json arrays;
    write_npy(dir / "VerCrd.npy", gpu_->coordinates(), {gpu_->vertices(), 4});
    arrays["VerCrd.npy"] = "float32 [vertices, 4]: x, y, z, 0";
    for (auto& n : gpu_->field_names()) {
      bool at_v = gpu_->field_at(n) == Kind::Vertices;
      write_npy(dir / (n + ".npy"), gpu_->download(n), {at_v ? gpu_->vertices() : gpu_->triangles(), 4});
      arrays[n + ".npy"] = std::string("float32 [") + (at_v ? "vertices" : "triangles") + ", 4]";
    }
    nlohmann::json reductions;
    for (auto& n : gpu_->field_names()) {
      auto r = gpu_->reduce(n, 0);
      reductions[n] = {{"min", r.min}, {"max", r.max}, {"sum", r.sum}, {"l2", r.l2}};
    }
    return {{"arrays", arrays}, {"reductions_x", reductions}, {"runs", steps_done_}, {"vertices", gpu_->vertices()}, {"triangles", gpu_->triangles()},
            {"kernels", kernels_.size()}};
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override;

 private:
  std::vector<std::unique_ptr<GpuMesh::Kernel>> compile(GpuMesh& g, const std::string& text) {
    for (auto& [n, at] : fields_named(text))
      if (!g.has_field(n) || g.field_at(n) != at) g.add_field(n, at);
    std::vector<std::unique_ptr<GpuMesh::Kernel>> out;
    for (auto& s : split(text)) {
      if (s.body.find_first_not_of(" \n\t") == std::string::npos) continue;
      try {
        out.push_back(g.compile(s.loop, s.body));
      } catch (const KernelError& e) {
        throw KernelError("section starting at line " + std::to_string(s.first_line) + ":\n" + e.what());
      }
    }
    if (out.empty()) throw KernelError("no kernel to run");
    return out;
  }

  void set_editor(const std::string& text) {
    editor_.assign(std::max<size_t>(16384, text.size() + 4096), '\0');
    std::memcpy(editor_.data(), text.data(), text.size());
  }

  std::string color_field() const {
    const std::string& c = params_.text("color_field");
    return c.empty() ? kExamples.at(params_.choice("example")).second : c;
  }

  // The colour range from a GPU reduction of the field (GmlReduceVector), every 20 frames.
  void update_range() {
    range_frames_ = 20;
    std::string f = color_field();
    if (!gpu_->has_field(f)) return;
    stats_ = gpu_->reduce(f, 0);
    if (stats_.min <= stats_.max) style_.lo = float(stats_.min), style_.hi = float(stats_.max);
    if (stats_.min == stats_.max) range_frames_ = 0;  // a flat field (the kernels have not run yet): look again next frame
  }

  void frame_camera() {
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (size_t v = 0; v < mesh_.vertices(); ++v) {
      glm::dvec3 p(mesh_.xyz[v * mesh_.dim], mesh_.xyz[v * mesh_.dim + 1], mesh_.dim == 3 ? mesh_.xyz[v * mesh_.dim + 2] : 0);
      lo = glm::min(lo, p), hi = glm::max(hi, p);
    }
    style_.centre = glm::vec3((lo + hi) * 0.5);
    style_.scale = float(2.0 / std::max(1e-12, glm::length(hi - lo)));
  }

  gpu::Context* ctx_ = nullptr;
  Mesh mesh_;
  std::unique_ptr<GpuMesh> gpu_;
  std::vector<std::unique_ptr<GpuMesh::Kernel>> kernels_;
  std::unique_ptr<render::MeshView> view_;
  render::MeshStyle style_;
  render::OrbitCamera camera_{glm::vec3(0.0f), 2.6f, 0.6f, 0.7f};
  std::vector<char> editor_;
  std::vector<float> sol_;
  Kind sol_at_ = Kind::Vertices;
  GpuMesh::Reduction stats_;
  std::string error_;
  int range_frames_ = 0;
  OrbitControl orbit_;
};

// Direct + indirect-down (barycentres: a triangle reads its 3 vertices) and indirect-up
// (a vertex gathers its ball's barycentres) on generated grids, against the same loops
// on one CPU thread.
std::vector<BenchRow> MeshLab::bench(gpu::Context& ctx, const BenchOptions& options) {
  std::vector<uint32_t> sides = options.quick ? std::vector<uint32_t>{32, 64} : std::vector<uint32_t>{256, 1024, 2048};
  std::vector<BenchRow> rows;
  for (uint32_t n : sides)
  for (const char* order : {"grid", "shuffled", "hilbert"}) {
    Mesh m = bumpy_grid(n);
    if (std::string(order) != "grid") shuffle(m, 7);
    if (std::string(order) == "hilbert") renumber_hilbert(m);
    GpuMesh g(ctx, m);
    g.add_field("Bar", Kind::Triangles);
    g.add_field("Mean", Kind::Vertices);
    auto down = g.compile(Kind::Triangles, "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;");
    auto up = g.compile(Kind::Vertices, "vec3 s = vec3(0.0);\nfor (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
                                        "VerMean.xyz = s / float(VerTriDeg);");
    const auto& t = m.elements[0];
    const Ball& b = g.ball();
    for (int which = 0; which < 2; ++which) {
      auto& k = which == 0 ? down : up;
      auto tm = gpu::time_gpu(ctx, [&](VkCommandBuffer cmd) { g.record(cmd, *k); }, options.quick ? 3 : 15,
                              options.quick ? 5 : 200);
      // The same loop on the CPU: one thread, then every hardware thread over equal slices.
      std::vector<float> bar(3 * t.count()), mean(3 * m.vertices());
      auto loop = [&](size_t lo, size_t hi) {
        if (which == 0) {
          for (size_t f = lo; f < hi; ++f)
            for (int c = 0; c < 3; ++c)
              bar[3 * f + c] =
                  float((m.xyz[3 * t.v[3 * f] + c] + m.xyz[3 * t.v[3 * f + 1] + c] + m.xyz[3 * t.v[3 * f + 2] + c]) / 3);
        } else {
          for (size_t v = lo; v < hi; ++v)
            for (uint32_t j = 0; j < b.degree[v]; ++j)
              for (int c = 0; c < 3; ++c) mean[3 * v + c] += bar[3 * b.faces[v * b.padded + j] + c] / float(b.degree[v]);
        }
      };
      size_t count = which == 0 ? t.count() : m.vertices();
      auto t0 = std::chrono::steady_clock::now();
      loop(0, count);
      double cpu = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::fill(mean.begin(), mean.end(), 0.0f);
      unsigned threads = std::max(1u, std::thread::hardware_concurrency());
      t0 = std::chrono::steady_clock::now();
      {
        std::vector<std::thread> pool;
        for (unsigned k = 0; k < threads; ++k) pool.emplace_back(loop, count * k / threads, count * (k + 1) / threads);
        for (auto& th : pool) th.join();
      }
      double cpu_mt = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      BenchRow row;
      row.pass = std::string(which == 0 ? "mesh.down (Tri) " : "mesh.up (Ver) ") + order;
      row.size = std::to_string(n) + "x" + std::to_string(n) + " grid";
      row.elements = which == 0 ? t.count() : m.vertices();
      row.repeats = tm.repeats;
      row.median_ms = tm.median_ms, row.min_ms = tm.min_ms;
      // Compulsory traffic (each buffer crossing memory once; the vertices a triangle shares
      // come from cache): down, TriVer and TriBar a triangle and VerCrd a vertex; up, the padded
      // ball row, the degree, VerCrd and VerMean a vertex and TriBar a triangle.
      row.bytes = which == 0 ? 32.0 * t.count() + 16.0 * m.vertices()
                             : double(m.vertices()) * (4.0 * b.padded + 4 + 16 + 16) + 16.0 * t.count();
      row.flops = which == 0 ? 9.0 * t.count() : 21.0 * m.vertices();
      row.reference = {{"triangles", t.count()}, {"vertices", m.vertices()}, {"ball_padded", b.padded},
                       {"elements_per_s", row.elements / (tm.median_ms * 1e-3)},
                       {"order", order}, {"cpu_single_thread_ms", cpu}, {"gain_over_cpu", cpu / tm.median_ms},
                       {"cpu_threads", threads}, {"cpu_threads_ms", cpu_mt}, {"gain_over_cpu_threads", cpu_mt / tm.median_ms},
                       {"device_saxpy_gbps", options.saxpy_gbps}};
      rows.push_back(row);
    }
    // Vertex accumulation of triangle areas: gather through the ball against scatter with
    // float atomics (seed 004 §2.5), side by side (on the generator's order).
    if (!ctx.atomic_float_add || std::string(order) != "grid") continue;
    g.add_field("Area", Kind::Triangles);
    g.add_field("Gathered", Kind::Vertices);
    g.add_field("Scattered", Kind::Vertices);
    const char* area_body = "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));";
    auto area = g.compile(Kind::Triangles, area_body);
    auto gather = g.compile(Kind::Vertices, "float a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\n"
                                            "VerGathered.x = a;");
    auto clear = g.compile(Kind::Vertices, "VerScattered.x = 0.0;");
    auto scatter = g.compile(Kind::Triangles,
                             "float a = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
                             "atomicAdd(Scattered_[TriVer.x].x, a);\natomicAdd(Scattered_[TriVer.y].x, a);\n"
                             "atomicAdd(Scattered_[TriVer.z].x, a);");
    for (int atomics = 0; atomics < 2; ++atomics) {
      auto tm = gpu::time_gpu(
          ctx,
          [&](VkCommandBuffer cmd) {
            g.record(cmd, atomics ? *clear : *area);
            g.record(cmd, atomics ? *scatter : *gather);
          },
          options.quick ? 3 : 15, options.quick ? 5 : 200);
      BenchRow row;
      row.pass = atomics ? "mesh.accumulate.atomics" : "mesh.accumulate.gather";
      row.size = std::to_string(n) + "x" + std::to_string(n) + " grid";
      row.elements = t.count();
      row.repeats = tm.repeats;
      row.median_ms = tm.median_ms, row.min_ms = tm.min_ms;
      row.reference = {{"what", "triangle areas summed at their vertices"},
                       {"method", atomics ? "clear, then scatter with atomicAdd on floats"
                                          : "areas, then gather through the padded ball"},
                       {"elements_per_s", t.count() / (tm.median_ms * 1e-3)}};
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace

std::unique_ptr<Lab> make_mesh_lab() { return std::make_unique<MeshLab>(); }
