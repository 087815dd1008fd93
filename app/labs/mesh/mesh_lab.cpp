// The mesh lab's knobs, editor, panel and dump (seed 004, GMlib). Math: compute/mesh/;
// picture: render/mesh/mesh_view; benchmarks: compute/mesh/bench.cpp.
#include "app/core/assets.h"
#include "app/core/lab.h"
#include "app/core/session.h"
#include "app/labs/mesh/fields.h"
#include "app/labs/mesh/files.h"
#include "app/labs/mesh/parameters.h"
#include "app/labs/mesh/records.h"
#include "app/labs/mesh/split.h"
#include "app/widgets/colour_bar.h"
#include "app/widgets/kernel_editor.h"
#include "app/widgets/warning_text.h"
#include "compute/io/input.h"
#include "compute/io/npy.h"
#include "compute/io/output.h"
#include "compute/measure/timer.h"
#include "compute/mesh/bench.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/kernel_trouble.h"
#include "compute/mesh/load_times.h"
#include "compute/mesh/renumber.h"
#include "compute/mesh/vtu.h"
#include "render/colormap.h"
#include "render/mesh/mesh_view.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <future>

using namespace mesh;

namespace {

// The generated meshes; an example names the one it is meant for by its text (Example::mesh).
enum class Generated { ForExample, Surface, Tetrahedra, Hexahedra };
const std::vector<std::pair<Generated, std::string>> kGenerated = {{Generated::ForExample, "the example's"},
                                                                   {Generated::Surface, "surface"},
                                                                   {Generated::Tetrahedra, "tetrahedra"},
                                                                   {Generated::Hexahedra, "hexahedra"}};
Generated generated_for(const Example& ex) {
  for (auto& [g, name] : kGenerated)
    if (name == ex.mesh) return g;
  throw std::logic_error("an example's mesh '" + ex.mesh + "' that the lab does not generate");
}

enum class Faces { Boundary, All };
enum class Numbering { AsIs, Hilbert, HilbertByDegree, Shuffled };  // compute/mesh/renumber.h's, by their text
enum class Axis { X, Y, Z };                                        // a coordinate's index

class MeshLab : public Lab {
 public:
  MeshLab() {
    params_.group("Mesh");
    mesh_file_ = params_.add_text("mesh_file", "", ".mesh / .meshb file (any element kinds); empty: a generated mesh")
                     .labelled("Mesh file")
                     .rebuilds()
                     .files({".mesh", ".meshb"});
    generate_ = params_
                    .add_choice("generate", kGenerated, Generated::ForExample,
                                "generated mesh: a bumpy triangulated square, or a cube of tetrahedra or hexahedra")
                    .labelled("Generated mesh")
                    .rebuilds();
    grid_size_ =
        params_.add_int("grid_size", 64, 2, 4096, "generated mesh: vertices along each side (cells for the cubes: /4)")
            .labelled("Grid size")
            .rebuilds();
    faces_ =
        params_
            .add_choice("faces", {{Faces::Boundary, "boundary"}, {Faces::All, "all"}}, Faces::Boundary,
                        "volume meshes: Tri and Qua loops run over the boundary faces, or all faces (inner ones too)")
            .labelled("Faces")
            .rebuilds();
    renumber_ =
        params_
            .add_choice("renumber",
                        {{Numbering::AsIs, "as is"},
                         {Numbering::Hilbert, "hilbert"},
                         {Numbering::HilbertByDegree, "hilbert by degree"},
                         {Numbering::Shuffled, "shuffled"}},
                        Numbering::AsIs,
                        "vertex and element order: as is, along a Hilbert curve, Hilbert by degree class, or shuffled")
            .labelled("Numbering")
            .rebuilds();
    sol_file_ =
        params_
            .add_text("sol_file", "",
                      ".sol / .solb: its first field becomes the field 'Sol' (double where the device has fp64)")
            .labelled("Solution file")
            .rebuilds()
            .files({".sol", ".solb"});
    params_.group("Kernel");
    example_ =
        params_
            .add_choice("example", all_example_names(), "laplacian smoothing", "example kernels: the manual's and ours")
            .labelled("Example")
            .rebuilds();
    kernel_file_ =
        params_
            .add_text(
                "kernel_file", "",
                "kernel source: sections split by '---', each '// loop: Tri' (Ver, Edg, Qua...); empty: the example")
            .labelled("Kernel file")
            .rebuilds()
            .files({".glsl", ".txt", ".comp", ".cl"});
    misprints_ =
        params_
            .add_choice(
                "misprints", {{Misprints::Fix, "fix"}, {Misprints::Refuse, "refuse"}}, Misprints::Fix,
                "manual's kernels (// dialect: gmlib) with misprints: fix runs the evident fix, refuse rejects them")
            .labelled("Manual's misprints")
            .rebuilds();
    runs_per_frame_ =
        params_.add_int("runs_per_frame", 1, 0, 100, "kernel runs a frame (0 pauses)").labelled("Runs a frame");
    params_.group("Several devices (GMlib)");
    split_devices_ = params_
                         .add_int("split_devices", 1, 1, 8,
                                  "the mesh split over this many device contexts, the halo exchanged; 1: not split")
                         .labelled("Split devices")
                         .rebuilds();
    split_steps_ = params_.add_int("split_steps", 100, 1, 10000, "smoothing steps of the split run")
                       .labelled("Split steps")
                       .rebuilds();
    params_.group("Picture");
    color_field_ = params_.add_text("color_field", "", "field drawn with the colour map (empty: the example's)")
                       .labelled("Colour field");
    color_component_ = params_
                           .add_int("color_component", 0, 0, 1023,
                                    "the component of the colour field (an array field: its elements' in order)")
                           .labelled("Colour component");
    wireframe_ = params_.add_bool("wireframe", true, "draw the edges").labelled("Wireframe");
    clip_ = params_.add_bool("clip", false, "volumes: take away the elements beyond a plane, show the ones it uncovers")
                .labelled("Clip");
    clip_axis_ = params_
                     .add_choice("clip_axis", {{Axis::X, "x"}, {Axis::Y, "y"}, {Axis::Z, "z"}}, Axis::X,
                                 "the clip plane's normal")
                     .labelled("Clip axis");
    clip_at_ = params_.add_float("clip_at", 0.5, 0.0, 1.0, "the clip plane's place across the mesh's box")
                   .labelled("Clip position");
  }

  std::string name() const override { return "mesh"; }
  // The coordinates and every field as its type (int and double vectors: components in a row).
  std::vector<Inspectable> inspectables() const override {
    std::vector<Inspectable> out = {{"VerCrd (vertex coordinates)", {&gpu_->coordinate_buffer()}, "vec4"}};
    for (auto& n : gpu_->field_names()) {
      auto t = gpu_->field_type(n);
      const char* floats[] = {"float", "vec2", "vec4", "vec4"};  // a 3-vector is padded to 4
      const char* kind[] = {"float", "int", "double", "int8", "int16"};
      std::string type = t.scalar != Scalar::Float || t.components > 4 ? kind[int(t.scalar)] : floats[t.components - 1];
      out.push_back(
          {n + " (" + short_name(gpu_->field_at(n)) + ", " + glsl_type(t) + ")", {&gpu_->field_buffer(n)}, type});
    }
    return out;
  }
  std::string title() const override { return "Kernels on unstructured meshes (Maréchal 2020, GMlib)"; }
  render::Legend legend() const override {
    render::Legend l{
        {legend_title(), "run " + std::to_string(steps_done_),
         legend_values(example_, color_field_) + ", " +
             (mesh_file_.get().empty() ? legend_values(grid_size_)
                                       : "mesh " + std::filesystem::path(*mesh_file_).filename().string())},
        {}};
    if (style_.lo <= style_.hi) l.bar = render::LegendBar{"coolwarm", style_.lo, style_.hi, "field " + range_key()};
    return l;
  }

  // The mesh the knobs generate (no file): a bumpy square's triangles, or the unit cube of
  // tetrahedra or hexahedra, grid_size / 4 cells a side, jittered by a quarter of a cell.
  mesh::Mesh generated_mesh() const {
    const Generated gen = *generate_ == Generated::ForExample ? generated_for(example()) : *generate_;
    uint32_t n = *grid_size_;
    if (gen == Generated::Surface) return bumpy_grid(n);
    return cube(std::max(1u, n / 4), gen == Generated::Tetrahedra ? Kind::Tetrahedra : Kind::Hexahedra, 0.25);
  }

  void build(gpu::Context& ctx) override {
    mesh::LoadTimes times([this](const std::string& phase, double s) { phase_done(phase, s); });
    const Example ex = example();
    const Generated gen = *generate_ == Generated::ForExample ? generated_for(ex) : *generate_;
    const std::string mesh_file = *mesh_file_, kernel_file = *kernel_file_, sol_file = *sol_file_;
    uint32_t n = *grid_size_;
    if (mesh_file.empty()) {  // the largest table, checked before generating
      uint64_t c = std::max(1u, n / 4);
      uint64_t table =
          gen == Generated::Surface ? 24ull * (n - 1) * (n - 1) : (gen == Generated::Tetrahedra ? 96 : 32) * c * c * c;
      std::string gen_name = *generate_ == Generated::ForExample ? ex.mesh : generate_.text();
      gpu::require_buffer(ctx, table, "mesh grid_size " + std::to_string(n) + " (" + gen_name + ")");
    }
    mesh::Mesh m = !mesh_file.empty() ? read_mesh(mesh_file) : generated_mesh();
    times.lap(mesh_file.empty() ? "generate" : "read");
    stop_if_cancelled();  // until the commit below, the previous mesh is whole
    std::string text = ex.text;
    if (!kernel_file.empty()) {
      text = io::read_input(kernel_file, 4 << 20);
    }
    std::pair<Kind, std::vector<uint32_t>> across;  // the volumes' neighbours, found with the faces
    if (m.dim == 3) {  // a volume's triangle and quadrilateral loops: its boundary, or every face
      bool all = *faces_ == Faces::All;
      FaceSet faces = extract_faces(m, !all);
      if (*renumber_ == Numbering::AsIs) across = {faces.volume_kind, std::move(faces.across)};
      for (Kind k : {Kind::Triangles, Kind::Quadrilaterals}) {
        auto file = std::find_if(m.elements.begin(), m.elements.end(), [k](auto& e) { return e.kind == k; });
        bool has = file != m.elements.end();
        Elements e = all ? all_faces(has ? &*file : nullptr, faces, k) : faces.boundary(k);
        if (has && all)
          *file = std::move(e);
        else if (!has && e.count())
          m.elements.push_back(std::move(e));
      }
      times.lap("faces");
      stop_if_cancelled();
    }
    renumber(m, renumber_.text());
    times.lap("numbering");
    if (!sol_file.empty() && *renumber_ != Numbering::AsIs)
      throw ParamError("a solution file follows the file's numbering: renumber 'as is' with --sol");
    // GMlib's several instances, on the elements before the GPU mesh takes them
    auto split = run_split(ctx, m, *split_devices_, *split_steps_);
    if (split.devices) times.lap("split run"), stop_if_cancelled();
    auto g = std::make_unique<GpuMesh>(ctx, m, GpuMesh::TakeElements{});  // m keeps its coordinates (restart())
    if (!across.second.empty()) g->set_neighbours(across.first, std::move(across.second));
    times.lap("edges and tables");
    stop_if_cancelled();
    if (g->count(Kind::Triangles) && g->count(Kind::Edges))
      g->add_link("Opp", Kind::Edges, Kind::Vertices, 2, facing_vertices(*g));
    SolField sol;
    if (!sol_file.empty()) try {
        sol = read_sol_field(*g, sol_file);
      } catch (const std::invalid_argument& e) {
        throw ParamError(e.what());
      }
    if (!sol.values.empty()) g->add_field("Sol", sol.at, sol.type);  // before the kernels that read it
    std::vector<Misprint> misprints;
    // The picture's records are made beside the kernels' compilation (they read only the elements
    // and the neighbours, taken from the mesh before): their time is then mostly hidden.
    auto records = std::async(std::launch::async, picture_records, records_inputs(*g));
    // throws: the previous mesh and kernels stay
    auto kernels = compile_text(*g, text, *misprints_, &misprints, &times);
    stop_if_cancelled();
    if (!view_ || ctx_ != &ctx) view_ = std::make_unique<render::MeshView>(ctx);
    ctx_ = &ctx;
    mesh_ = std::move(m);
    gpu_ = std::move(g);
    split_ = std::move(split);
    sol_ = std::move(sol);
    kernels_ = std::move(kernels);
    misprints_found_ = std::move(misprints);
    largest_balls_.clear();
    last_good_.clear();
    par_slots_.clear(), par_after_.clear();
    recorded_key_.clear();
    set_editor(text);
    error_.clear();
    frame_camera();
    times.launching();
    calibrate(ctx);  // the kernels' first launches, before the pictures the runs do not need
    times.lap("calibration");
    pictures_ = mesh::make_pictures(ctx, records.get());
    times.lap("pictures");
    restart();
    times.lap("start");
    load_times_ = times;
    params_.rebuild_pending = false;
  }

  void restart() override {
    std::vector<float> crd(4 * mesh_.vertices(), 0.0f);
    for (size_t v = 0; v < mesh_.vertices(); ++v)
      for (int c = 0; c < std::min(mesh_.dim, 3); ++c) crd[4 * v + c] = float(mesh_.xyz[v * mesh_.dim + c]);
    gpu_->set_coordinates(crd);
    for (auto& n : gpu_->field_names()) gpu_->add_field(n, gpu_->field_at(n), gpu_->field_type(n));
    if (!sol_.values.empty()) {
      gpu_->add_field("Sol", sol_.at, sol_.type);
      gpu_->upload("Sol", sol_.values);
    }
    steps_done_ = 0;
    stats_key_.clear();
    problem_.clear();
  }

  std::string problem() override {
    check_runs();
    if (problem_.empty() && !range_key().empty()) update_range();  // waits: headless asks between submissions
    return problem_;
  }

  uint32_t steps_per_frame() const override { return *runs_per_frame_; }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    if (!recorded_key_.empty() && recorded_key_ == range_key()) take_range(gpu_->read_reduction());  // last frame's
    recorded_key_.clear();
    check_runs();                   // the last frame's, where problem() has not read it
    if (!problem_.empty()) return;  // paused by the watchdog until Restart
    take_parameters();              // the last frame's
    for (uint32_t s = 0; s < steps; ++s)
      for (size_t k = 0; k < kernels_.size(); ++k) {
        if (!gpu_->valid(*kernels_[k])) {  // a failed compile changed a field it uses
          error_ = "kernel " + std::to_string(k + 1) + " uses a field whose type changed: compile again";
          continue;
        }
        // Timed as GMlib times a launch: the kernel's dispatches, inside the barriers around them.
        GpuMesh::TimedScope scope{prof, "mesh.kernel" + std::to_string(k + 1) + "." + short_name(kernels_[k]->loop),
                                  gpu_->traffic(*kernels_[k])};
        bool back = s + 1 == steps && !kernels_[k]->parameters.empty() && k < GpuMesh::kParameterSlots;
        gpu_->record(cmd, *kernels_[k], back ? int(k) : -1, &scope);  // the last run's launches read Par back
        if (back) par_slots_.push_back(k);
      }
    frame_runs_ = {steps_done_ + 1, steps_done_ + steps};
    steps_done_ += steps;
    if (std::string key = range_key(); !key.empty()) {  // the colour range, read back next frame
      gpu::Profiler::Scope scope(prof, cmd, "mesh.range", double(gpu_->field_buffer(color_field()).size()), 0);
      gpu_->record_reduce(cmd, color_field(), color_component());
      recorded_key_ = key;
    }
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope scope(prof, cmd, "mesh.draw", 0, 0);
    if (stats_key_ != range_key()) update_range();
    render::MeshStyle st = style_;
    st.wireframe = *wireframe_;
    st.clip = *clip_;
    int axis = int(*clip_axis_);
    st.plane = glm::vec4(0.0f);
    st.plane[axis] = 1.0f;
    st.plane.w = float(box_lo_[axis] + *clip_at_ * (box_hi_[axis] - box_lo_[axis]));
    std::string f = color_field();
    for (auto& p : pictures_) {
      render::MeshField field;
      if (gpu_->has_field(f) && (gpu_->field_at(f) == Kind::Vertices || gpu_->field_at(f) == p.kind)) {
        FieldType t = gpu_->field_type(f);
        field = {&gpu_->field_buffer(f), gpu_->field_at(f) == Kind::Vertices, int(t.scalar), field_stride(t),
                 field_offset(t, color_component())};
      }
      view_->draw(cmd, frame, gpu_->coordinate_buffer(), gpu_->element_buffer(p.kind), nodes_of(p.kind), p.records,
                  p.triangles, field, st, camera_);
    }
  }

  void pointer(const Pointer& p, const render::Frame&) override { orbit_.update(camera_, p); }

  // The panel: the mesh's counts and colour field, Par, memory and transfers, the kernel editor and its
  // buttons, then the names a loop body may use and the generated shaders.
  void ui() override {
    for (Kind k : gpu_->kinds()) ImGui::TextWrapped("%-14s %zu", kind_name(k), gpu_->count(k));
    ImGui::TextWrapped("%s", load_times_.text().c_str());
    ImGui::TextWrapped("%s, fp64: %s, float atomics: %s", ctx_->info.name.c_str(), ctx_->info.fp64 ? "yes" : "no",
                       ctx_->atomic_float_add ? "yes" : "no");  // GmlListGPU, GmlCheckFP64
    std::string f = color_field();
    ImGui::TextWrapped("colour: %s  sum %.6g  L2 %.6g", stats_key_.c_str(), stats_.sum, stats_.l2);
    colour_bar("coolwarm", style_.lo, style_.hi);  // as the picture uses it, the field's minimum to maximum
    if (gpu_->has_field(f) && gpu_->field_at(f) != Kind::Vertices &&
        std::none_of(pictures_.begin(), pictures_.end(), [&](auto& p) { return p.kind == gpu_->field_at(f); }))
      warning_text({1, 0.8f, 0.3f, 1}, "%s lives at %s, not drawn here: grey", f.c_str(), kind_name(gpu_->field_at(f)));
    fields_panel_.draw(*gpu_, kernels_, last_good_);
    parameters_panel(*gpu_, par_after_);
    split_panel(split_);
    if (ImGui::TreeNode("memory (GmlGetMemoryUsage)")) {
      size_t total = 0;
      for (auto& [n, b] : gpu_->memory()) ImGui::TextWrapped("%-16s %10.3f MiB", n.c_str(), b / 1048576.0), total += b;
      ImGui::TextWrapped("%-16s %10.3f MiB", "total", total / 1048576.0);
      ImGui::TreePop();
    }
    if (ImGui::TreeNode("transfers (GmlGetMemoryTransfer)")) {
      for (auto& [n, t] : gpu_->transfers())
        ImGui::TextWrapped("%-16s up %9.3f MiB  down %9.3f MiB", n.c_str(), t.first / 1048576.0, t.second / 1048576.0);
      ImGui::TreePop();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "kernel ('---' between sections; '// loop: Tri' ...; '// field: Name type Kind'; '// param: Name type = v'; "
        "'// write: colouring': an element loop run colour by colour, no two elements of a colour sharing a vertex; "
        "'// dialect: gmlib': the GMlib manual's names and OpenCL spellings, with '// data:' lines):");
    ImGui::PopTextWrapPos();
    ImGui::Checkbox("Kernel text beside the picture", &pane_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("an editor pane of its own, resizable by its right edge; else here");
    if (!pane_) kernel_controls(240);
    if (!saved_.empty()) ImGui::TextDisabled("%s", saved_.c_str());
    for (size_t k = 0; k < kernels_.size(); ++k)  // '// write: colouring' (compute/mesh/colouring.h)
      if (uint32_t colours = colours_of(*kernels_[k]))
        ImGui::TextWrapped("kernel %zu: %s in %u colours (largest ball %u), a launch each", k + 1,
                           kind_name(kernels_[k]->loop), colours, largest_ball_of(kernels_[k]->loop));
    if (!misprints_found_.empty())  // the GMlib manual's kernels as printed: what runs fixed
      warning_text({1, 0.75f, 0.3f, 1}, "%s", misprints_text().c_str());
    if (pane_ && !error_.empty()) warning_text({1, 0.4f, 0.4f, 1}, "%s", error_.c_str());  // else under the editor
    if (!problem_.empty()) warning_text({1, 0.3f, 0.3f, 1}, "%s Paused; Restart.", problem_.c_str());
    if (ImGui::TreeNode("names a loop body may use")) {
      for (Kind loop : gpu_->kinds())
        if (ImGui::TreeNode(kind_name(loop), "// loop: %s", short_name(loop))) {
          for (auto& n : gpu_->names(loop)) {
            std::string decl =
                n.type + " " + n.name + (n.size.empty() ? "" : "[" + (n.size == "[]" ? "" : n.size) + "]");
            ImGui::TextWrapped("%-30s %s", decl.c_str(), n.what.c_str());
          }
          ImGui::TreePop();
        }
      ImGui::TreePop();
    }
    for (size_t k = 0; k < kernels_.size(); ++k)
      if (ImGui::TreeNode((void*)k, "generated shader %zu (%s loop, %u a workgroup)", k + 1,
                          short_name(kernels_[k]->loop), kernels_[k]->group_size())) {
        ImGui::TextUnformatted(kernels_[k]->source.c_str());
        ImGui::TreePop();
      }
    ImGui::TextDisabled("right drag: orbit; wheel: zoom");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    nlohmann::json out = dump_mesh(*gpu_, kernels_, dir);
    take_parameters();
    out["parameters"] = parameters_json(*gpu_, par_after_);
    out["runs"] = steps_done_;
    nlohmann::json opened = nlohmann::json::object();
    for (auto& [phase, seconds] : load_times_.phases()) opened[phase] = seconds;
    out["open_seconds"] = opened;
    out["first_launch_seconds"] = load_times_.first_launch();
    out["vertices"] = gpu_->vertices();
    out["triangles"] = gpu_->count(Kind::Triangles);
    out["kernels"] = kernels_.size();
    nlohmann::json colours = nlohmann::json::array();  // a kernel's colours (0: not by colour)
    for (auto& k : kernels_) colours.push_back(colours_of(*k));
    out["kernel_colours"] = colours;
    nlohmann::json misprints = nlohmann::json::array();  // the GMlib manual's, run fixed
    for (auto& m : misprints_found_) misprints.push_back({{"line", m.line}, {"what", m.what}, {"fix", m.fix}});
    out["gmlib_misprints"] = misprints;
    out["split"] = split_json(split_);
    return out;
  }

  std::string headless_report() override {
    std::string m = misprints_text();
    return "mesh: " + load_times_.text() + "\n" + m + split_text(split_);
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return mesh::bench(ctx, options);
  }

 private:
  // Par as the last frame's launches left it; the host's copy becomes the last (the manual's
  // download after a launch).
  void take_parameters() {
    if (par_slots_.empty()) return;
    par_after_.clear();
    for (size_t k : par_slots_) par_after_.push_back({k, gpu_->parameters_after(uint32_t(k))});
    gpu_->adopt_parameters(uint32_t(par_slots_.back()));
    par_slots_.clear();
  }

  // Once a frame has run: a kernel that ran out of its loop budget, or stored NaN or infinite
  // coordinates (GpuMesh::take_status). The kernels compiled before come back where there are
  // some (the panel says why); otherwise the run stops: paused until Restart, and headless ends
  // with this line (exit 3).
  void check_runs() {
    auto [first, last] = frame_runs_;
    std::string when = first == last ? "in run " + std::to_string(last)
                                     : "in runs " + std::to_string(first) + " to " + std::to_string(last);
    std::string trouble = kernel_trouble(gpu_->take_status(), kernels_, when);
    if (trouble.empty()) return;
    if (!last_good_.empty()) {
      kernels_ = std::move(last_good_);
      last_good_.clear();
      par_slots_.clear(), par_after_.clear();
      error_ = trouble + "; back to the kernels compiled before them";
    } else if (problem_.empty()) {
      problem_ = trouble;
    }
  }

  // GMlib's calibration, before the first run: the kernels' workgroup sizes tuned on scratch
  // runs (GroupTuning) that restart() then undoes, Par put back as the text gave it. The H100's
  // Vulkan driver lets the SM clock fall to 345 MHz while the CPU reads a mesh and brings it
  // back only under a second or so of load (GMlib's OpenCL context holds it at the top:
  // docs/PERF.md), so where the kernels cover a million entities or more the scratch runs first
  // warm the GPU up as a bench row does (gpu::time_gpu) and the sizes are tuned after that:
  // the first runs are then timed at the clock of the later ones. A first scratch run that
  // runs out of its loop budget or stores non-finite coordinates ends it (the real run says so);
  // the tuning stops at 5 s. Nothing to do on a CPU device (lavapipe): one size, no clock.
  void calibrate(gpu::Context& ctx) {
    if (!gpu_->tunes_groups()) return;
    auto run = [&](VkCommandBuffer cmd) {
      for (auto& k : kernels_) gpu_->record(cmd, *k);
    };
    auto trouble = [&] {
      gpu::LoopStatus st = gpu_->take_status();
      return st.budget_tag != 0 || st.flag_tag != 0;
    };
    auto tuned = [&] {
      return std::all_of(kernels_.begin(), kernels_.end(), [](auto& k) { return k->tuning.tuned(); });
    };
    size_t entities = 0;
    for (auto& k : kernels_) entities += k->count;
    ctx.submit_now(run);
    bool ok = !trouble();
    if (ok && entities >= (size_t(1) << 20)) {
      gpu::time_gpu(ctx, run, 1, 50);  // at least 0.75 s of runs the first time, 50 ms later
      ok = !trouble();
      for (auto& k : kernels_) gpu_->retune(*k);
    }
    auto start = std::chrono::steady_clock::now();
    while (ok && !tuned() && std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {
      ctx.submit_now(run);
      ok = !trouble();
    }
    std::vector<Parameter> text_values = gpu_->parameters();
    for (const Parameter& p : text_values) gpu_->set_parameter(p.name, p.values);
  }

  bool wants_editor_pane() const override { return pane_; }
  void editor_pane() override {
    ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "The mesh kernel");
    ImGui::SameLine();
    ImGui::TextDisabled("(the names a body may use, misprints and errors: Lab tab)");
    float below =
        3 * ImGui::GetFrameHeightWithSpacing() + (error_.empty() ? 0 : 3 * ImGui::GetTextLineHeightWithSpacing());
    kernel_controls(ImGui::GetContentRegionAvail().y - below);
  }

  // The kernel text's editor, `height` pixels tall, and what acts on it: Compile (Ctrl+S too),
  // Save kernel, Save mesh + fields, and the last error.
  void kernel_controls(float height) {
    bool compile = kernel_editor_.draw({}, std::max(160.0f, height));
    if (ImGui::Button("Compile") || compile) {
      try {
        par_slots_.clear(), par_after_.clear();  // compiling remakes the read-back slots, even when it fails
        std::vector<Misprint> misprints;
        auto fresh = compile_text(*gpu_, kernel_editor_.text(), *misprints_, &misprints);
        last_good_ = std::move(kernels_);  // come back if the new ones run out of their loop budget
        kernels_ = std::move(fresh);
        misprints_found_ = std::move(misprints);
        error_.clear();
        kernel_editor_.saved();
      } catch (const std::exception& e) {
        error_ = e.what();  // the last good kernels keep running
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+S in the editor");
    ImGui::SameLine();
    if (ImGui::Button("Save kernel")) save_kernel();
    ImGui::SameLine();
    if (ImGui::Button("Save mesh + fields")) {
      try {
        save_mesh(*gpu_, "vklab-mesh");
        saved_ = "saved " + (std::filesystem::current_path() / "vklab-mesh").string() + ".meshb / .solb";
      } catch (const std::exception& e) {
        saved_ = e.what();
      }
    }
    if (kernel_editor_.dirty()) ImGui::TextDisabled("(edited, not compiled)");
    if (!error_.empty()) warning_text({1, 0.4f, 0.4f, 1}, "%s", error_.c_str());
  }

  void save_kernel() {
    std::filesystem::path p = kernel_file_.get().empty() ? "mesh-kernel.glsl" : *kernel_file_;
    try {
      io::write_file(p, kernel_editor_.text());
      saved_ = "saved to " + p.string();
    } catch (const std::runtime_error& e) {
      saved_ = e.what();
    }
  }

  // The examples: the lab's (kernel_text.h), then the manual's printed kernels, read from their
  // files (assets/mesh/kernels/manual/, gmlib_dialect.h).
  static std::vector<std::string> all_example_names() {
    std::vector<std::string> n = example_names();
    for (auto& m : manual_kernels()) n.push_back(m.example);
    return n;
  }
  const ManualKernel* manual_example() const {
    for (auto& m : manual_kernels())
      if (m.example == *example_) return &m;
    return nullptr;
  }
  Example example() const {
    const ManualKernel* m = manual_example();
    if (!m) return mesh_examples().at(*example_);
    return {io::read_input(find_asset("mesh/kernels/manual/" + m->file).string(), 1 << 20), m->colour, "surface"};
  }
  mesh::LoadTimes load_times_;  // the last build, phase by phase

  std::string misprints_text() const {
    if (misprints_found_.empty()) return "";
    return "the GMlib manual's text as printed has " + std::to_string(misprints_found_.size()) +
           " misprint(s), run with the evident fix (Manual's misprints = fix; refuse to refuse them):\n" +
           misprint_report(misprints_found_);
  }

  static uint32_t colours_of(const GpuMesh::Kernel& k) {
    return k.colours.empty() ? 0 : uint32_t(k.colours.size() - 1);
  }
  uint32_t largest_ball_of(Kind k) {
    auto [it, fresh] = largest_balls_.try_emplace(k, 0);
    if (fresh) it->second = largest_ball(gpu_->elements(k).v, nodes_of(k), gpu_->vertices());
    return it->second;
  }

  void set_editor(const std::string& text) { kernel_editor_.set_text(text); }

  std::string color_field() const {
    std::string c = *color_field_;
    if (!c.empty()) return c;
    const ManualKernel* m = manual_example();
    return m ? m->colour : mesh_examples().at(*example_).colour;
  }

  // The colour range: a GPU reduction of the field (GmlReduceVector) recorded after each
  // frame's kernels and read at the next (one frame is in flight at most); waited for only
  // when the colour field or component has just changed.
  uint32_t color_component() const {
    return std::min<uint32_t>(*color_component_, field_values(gpu_->field_type(color_field())) - 1);
  }
  std::string range_key() const {
    std::string f = color_field();
    return gpu_->has_field(f) ? f + "[" + std::to_string(color_component()) + "]" : "";
  }
  void update_range() {
    stats_key_ = range_key();
    if (!stats_key_.empty()) take_range(gpu_->reduce(color_field(), color_component()));
  }
  void take_range(const GpuMesh::Reduction& r) {
    stats_ = r, stats_key_ = range_key();
    if (!(std::isfinite(r.sum) && std::isfinite(r.l2)) && problem_.empty()) {  // the watchdog: pause, say why
      problem_ = "the kernels made " + stats_key_ + " NaN or infinite after " + std::to_string(steps_done_) +
                 " runs (example '" + *example_ + "' on " +
                 (mesh_file_.get().empty() ? "the generated mesh" : *mesh_file_) + "): does the mesh fit the example?";
    }
    if (r.min <= r.max) style_.lo = float(r.min), style_.hi = float(r.max);
  }

  void frame_camera() {
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (size_t v = 0; v < mesh_.vertices(); ++v) {
      glm::dvec3 p(0.0);
      for (int c = 0; c < std::min(mesh_.dim, 3); ++c) p[c] = mesh_.xyz[v * mesh_.dim + c];
      lo = glm::min(lo, p), hi = glm::max(hi, p);
    }
    box_lo_ = lo, box_hi_ = hi;
    style_.centre = glm::vec3((lo + hi) * 0.5);
    style_.scale = float(2.0 / std::max(1e-12, glm::length(hi - lo)));
  }

  Knob<std::string> mesh_file_, sol_file_, example_, kernel_file_, color_field_;
  Choice<Generated> generate_;
  Choice<Faces> faces_;
  Choice<Numbering> renumber_;
  Choice<Misprints> misprints_;
  Knob<uint32_t> grid_size_, runs_per_frame_, color_component_, split_devices_, split_steps_;
  Knob<bool> wireframe_, clip_;
  Choice<Axis> clip_axis_;
  Knob<double> clip_at_;

  gpu::Context* ctx_ = nullptr;
  mesh::Mesh mesh_;
  SplitReport split_;         // GMlib's several instances: the mesh on split_devices contexts
  FieldsPanel fields_panel_;  // GmlFreeData, GmlGetDataLine, GmlSetDataLine by hand
  std::unique_ptr<GpuMesh> gpu_;
  std::vector<std::unique_ptr<GpuMesh::Kernel>> kernels_;
  std::vector<std::unique_ptr<GpuMesh::Kernel>> last_good_;  // those compiled before kernels_ (the Compile button)
  std::pair<uint64_t, uint64_t> frame_runs_{0, 0};           // the runs the last frame recorded
  std::unique_ptr<render::MeshView> view_;
  std::vector<mesh::Picture> pictures_;
  render::MeshStyle style_;
  glm::dvec3 box_lo_{0.0}, box_hi_{1.0};
  render::OrbitCamera camera_{glm::vec3(0.0f), 2.6f, 0.6f, 0.7f};
  KernelEditor kernel_editor_;  // the kernel's text as the user edits it
  bool pane_ = false;           // the editor in the window's pane beside the picture
  SolField sol_;
  GpuMesh::Reduction stats_;
  std::string error_, saved_, problem_;
  std::vector<Misprint> misprints_found_;   // the GMlib manual's, in the kernels running
  std::map<Kind, uint32_t> largest_balls_;  // for the panel's colouring line, by the loop's kind
  std::vector<size_t> par_slots_;           // the kernels whose last launch reads Par back (slot = index)
  std::vector<LaunchReadback> par_after_;   // what they read, once their frame has run
  std::string stats_key_, recorded_key_;    // the field[component] of stats_, and of the reduction in flight
  OrbitControl orbit_;
};

}  // namespace

// vklab mesh --write-mesh --out FILE.meshb [--set generate=... --set grid_size=...]: the mesh
// the knobs generate, its vertices and cells only, as a GMF version 2 file: the file GMlib and
// the lab's --mesh read alike (docs/PERF.md's comparison with GMlib).
static int run_write_mesh(const Options& o) {
  if (o.out.empty()) throw ParamError("mesh --write-mesh needs --out FILE.meshb (or FILE.mesh)");
  auto lab = lab_from_options(o, "mesh");
  auto m = static_cast<const MeshLab&>(*lab).generated_mesh();
  write_mesh(o.out, m, 2);
  size_t cells = 0;
  for (auto& e : m.elements) cells += e.count();
  std::printf("wrote %s: %zu vertices, %zu elements\n", o.out.c_str(), m.vertices(), cells);
  return 0;
}

LabEntry mesh_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<MeshLab>()); },
          {{"--mesh", "mesh_file", "FILE.mesh|.meshb"},
           {"--sol", "sol_file", "FILE.sol|.solb"},
           {"--kernel", "kernel_file", "FILE (a GLSL kernel body, or the GMlib manual's: '// dialect: gmlib')"}},
          {{"--write-mesh", "--out FILE.meshb [--set grid_size=N]", "the generated mesh as a file GMlib reads too",
            run_write_mesh}}};
}
