// The machining lab's knobs, panel and dump (seed 003). Math: compute/machining/ (its
// benchmark: compute/machining/bench.cpp); picture: render/machining/stock_view.
#include "app/core/lab.h"
#include "app/labs/machining/frame_partition.h"
#include "app/labs/machining/panels.h"
#include "app/labs/machining/params.h"
#include "app/labs/machining/readout.h"
#include "app/labs/machining/replay.h"
#include "app/labs/machining/shadow.h"
#include "app/labs/machining/simplified.h"
#include "app/widgets/plot.h"
#include "app/widgets/warning_text.h"
#include "compute/exercise/user_kernel.h"
#include "compute/io/npy.h"
#include "compute/machining/analytic.h"
#include "compute/machining/bench.h"
#include "compute/machining/io/gcode.h"
#include "compute/machining/nbuffer.h"
#include "compute/machining/stats.h"
#include "compute/machining/zbuffer.h"
#include "render/colormap.h"
#include "render/machining/stock_view.h"

#include <imgui.h>

#include <cmath>
#include <optional>

using namespace machining;

namespace {

class MachiningLab : public Lab {
 public:
  MachiningLab() : knobs_(declare_machining_params(params_)) {}

  std::string name() const override { return "machining"; }
  std::vector<Inspectable> inspectables() const override {
    Inspectable heights{
        "brin heights (order-preserving keys)", {&machine_->height_keys()}, "height key", machine_->stock().nx};
    heights.key = machining::key_height;  // the atomic minimum's order-preserving keys, read as heights
    return {heights};
  }
  std::string title() const override {
    return std::string("Milling by ") + (machine_ && machine_->stock().nbuffer ? "N-buffer" : "Z-buffer") +
           " (Abecassis 2012, SIMSURF)";
  }
  // ", engine fine, atomic cas, ...": the lab's own engine and the options it runs with.
  std::string engine_legend() const {
    return ", engine " + engine_names()[size_t(engine())] +
           (machine_->stock().nbuffer ? ", rays along the normal" : "") +
           (machine_->stock().nbuffer && *knobs_.accelerator == Accelerator::Bvh ? ", bounding-volume hierarchy" : "") +
           (*knobs_.atomic == Atomic::Native || !uses_atomics() ? "" : ", atomic " + knobs_.atomic.text()) +
           (*knobs_.intersection == HitTest::Edge || !intersects_triangles()
                ? ""
                : ", " + knobs_.intersection.text() + " test") +
           (*knobs_.frame == Frame::Tool || !intersects_triangles() ? "" : ", world frame (15.3)") +
           (fast_math() ? ", fast math" : "");
  }
  render::Legend legend() const override {
    std::string at = "position " + std::to_string(done_) + " of " +
                     std::to_string(machine_ ? machine_->positions() : 0) +
                     (runs_user_kernel() ? ", engine your kernel" : engine_legend());
    if (stages_.size() > 1)
      at += ", stage " + std::to_string(stage_ + 1) + " of " + std::to_string(stages_.size()) + " (" +
            stage_names_[stage_] + ")";
    if (replay_.played()) at += ", replay: the tool at " + std::to_string(replay_.position() + 1);
    auto file = [](const Knob<std::string>& k) { return std::filesystem::path(*k).filename().string(); };
    std::string what =
        (knobs_.tool_file.get().empty() ? legend_values(knobs_.tool_shape) : "tool " + file(knobs_.tool_file)) +
        (machine_ && machine_->analytic() ? " (analytic)" : "") +
        (simplify_ ? " simplified to " + std::to_string(simplify_->after) + " triangles" : "") + ", " +
        (knobs_.path_file.get().empty() ? legend_values(knobs_.path) : "path " + file(knobs_.path_file)) + ", " +
        (machine_->stock().surface.shape == SurfaceShape::Flat
             ? ""
             : legend_values(knobs_.surface, knobs_.surface_radius) + ", ") +
        legend_values(knobs_.height_scale) +
        (*knobs_.primitive == render::LatticePrimitive::Triangles ? "" : ", " + legend_values(knobs_.primitive));
    const Display display = *knobs_.display;
    if (display == Display::Shaded || (display != Display::Depth && !readout_.field_ready))
      return {{legend_title(), at, what}, {}};
    if (display == Display::Depth)
      return {
          {legend_title(), at, what},
          render::LegendBar{colormap(), 0, max_cut_guess(),
                            std::string(machine_->stock().nbuffer ? "depth of cut along the normal" : "depth of cut") +
                                " (stock units); relief x height_scale, tool true scale"}};
    std::string field = display == Display::Laplacian ? "Laplacian of the heights (1 / length)"
                        : display == Display::Error
                            ? "single - double precision, float ulps"
                            : "this run - the " + knobs_.compare_engine.text() + " engine's, float ulps";
    return {{legend_title(), at, what},
            render::LegendBar{colormap(), -readout_.field_range, readout_.field_range, field}};
  }

  void build(gpu::Context& ctx) override {
    const Stock s = machining_stock(knobs_);
    std::vector<float> start;
    if (!knobs_.stock_file.get().empty()) {
      start = machining_stock_file(knobs_, s);
    } else if (start_.size() == size_t(s.nx) * s.ny && machine_ && machine_->stock().nbuffer == s.nbuffer) {
      start = start_;  // "Keep as stock" survives a new path, not a change of what the brins hold
    }
    std::optional<AnalyticTool> analytic = machining_analytic_tool(knobs_);
    std::optional<SimplifiedTool> simplified;
    Mesh tool = machining_tool(knobs_, &simplified);
    std::string held;  // what a G-code file held
    std::vector<Position> path = machining_path(knobs_, s, held);
    std::optional<SimplifyReadout> simplify;
    if (simplified) simplify = measure_simplification(*simplified, s, path);
    const std::string pf = *knobs_.path_file;
    auto made = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<Machine>> stages;
    stages.push_back(std::make_unique<Machine>(ctx, s, tool, path, analytic ? &*analytic : nullptr));
    std::vector<std::string> stage_names = {pf.empty() ? knobs_.path.text() : "file " + pf};
    const auto then = machining_stages(params_, s);
    if (!then.empty() && (s.f64 || analytic))
      throw ParamError(
          "then: the stages hand their surface over in single precision, mesh tools: set precision=single "
          "and tool_model=mesh");
    for (auto& st : then)
      stages.push_back(std::make_unique<Machine>(ctx, s, st.tool, st.path)), stage_names.push_back(st.name);
    const double init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - made).count();
    preview_.clear();
    preview_keys_.reset();
    if (!zoom_from_.empty() && machine_) preview_ = resample(machine_->stock(), zoom_from_, s);  // until re-milled
    zoom_from_.clear();
    if (!view_ || &ctx != ctx_) view_ = std::make_unique<render::StockView>(ctx);
    ctx_ = &ctx;
    stages_ = std::move(stages);
    stage_names_ = std::move(stage_names);
    stage_ = 0;
    machine_ = stages_[0].get();
    init_ms_ = init_ms;
    statistics_ = statistics_table(ctx, *machine_, stage_names_[0]);
    simplify_ = std::move(simplify);
    start_ = std::move(start);
    if ((gcode_held_ = held) != "") std::fprintf(stderr, "vklab: %s: %s\n", pf.c_str(), held.c_str());
    restart();
    // a curved stock drops below its top: aim at half its drop (the picture spans 2 across)
    if (s.surface.shape != SurfaceShape::Flat) {
      auto base = surface_heights(s);
      float drop = s.top - *std::min_element(base.begin(), base.end());
      camera_.target.y = -drop * float(1.0 / (double(std::max(s.nx, s.ny)) * s.d));
    }
    params_.rebuild_pending = false;
  }

  void restart() override {
    if (stage_ != 0) {  // back to the first stage; the later ones take the surface as they start
      stage_ = 0, machine_ = stages_[0].get();
      statistics_ = statistics_table(*ctx_, *machine_, stage_names_[0]);
    }
    const auto& s = machine_->stock();
    from_ = start_.empty() ? starting_values(s) : start_;
    areas_ = s.nbuffer ? surface_areas(s) : std::vector<float>{};
    view_->set_base(s.surface.shape == SurfaceShape::Flat ? std::vector<float>{} : surface_heights(s));
    machine_->set_heights(from_);
    done_ = 0;
    steps_done_ = 0;
    paused_ = false;
    partition_.restart();
    replay_.reset();
    readout_.dirty = true;
    problem_.clear();
    shadow_.reset();
    readout_.comparison = {};
  }

  // The exercise machining/atomic-lowering's kernel, once it passed its check, lowers the brins
  // in place of the engine (Machine::record_user) where the stock and tool fit its contract: a
  // Z-buffer of single precision keys and a mesh tool whose triangles it can loop over; the
  // panel says why not where they do not (at the offer, or after a rebuild: then the lab's own
  // engine mills until they fit again).
  bool use_kernel(const std::string& op, const exercise::UserKernel* kernel) override {
    if (op != "machining.lowering") return false;
    user_lowering_ = nullptr;
    refused_.clear();
    if (!kernel) return true;
    std::string unfit = user_kernel_unfit(*kernel);
    if (!unfit.empty()) {
      refused_ = unfit;
      return false;
    }
    user_lowering_ = kernel;
    return true;
  }

  // Why the user's lowering kernel cannot mill this stock and tool (knobs to change), or "".
  std::string user_kernel_unfit(const exercise::UserKernel& k) const {
    if (!machine_) return "";
    std::string unfit = machine_->user_lowering_unfit(k);
    if (unfit.empty()) return "";
    const Stock& s = machine_->stock();
    return unfit + (s.nbuffer              ? " (set rays=vertical)"
                    : s.f64                ? " (set precision=single)"
                    : machine_->analytic() ? " (set tool_model=mesh)"
                                           : "");
  }

  bool runs_user_kernel() const { return user_lowering_ && user_kernel_unfit(*user_lowering_).empty(); }

  // The watchdog: a height that is not finite stops the milling (the stats read-back finds
  // it: at most 4 times a second while milling, then once the path is done).
  std::vector<PlotData> plots() const override {
    auto out = partition_.plots();
    if (!readout_.profile.empty()) out.push_back(profile_plot());
    return out;
  }
  PlotData profile_plot() const {
    return {
        {"machining-cross-section", "brin along the cross-section (profile_row)", "height (stock units)", false, 100},
        {},
        {readout_.profile.begin(), readout_.profile.end()}};
  }

  std::string problem() override {
    if (profiler_) partition_.feed(*profiler_);  // right after the frame's resolve
    update_stats(done_ >= machine_->positions());
    return problem_;
  }

  uint32_t steps_per_frame() const override { return 1; }

  // Whether the engine lowers shared brins with the `atomic` option (position, triangle, fine, persistent).
  bool uses_atomics() const {
    Engine e = engine();
    return e != Engine::Cpu && e != Engine::PerBrin && e != Engine::Hardware;
  }

  std::string colormap() const {
    std::string c = *knobs_.colormap;
    if (c != kAutoColormap) return c;
    const Display d = *knobs_.display;
    return d == Display::Depth || d == Display::Shaded ? "heat" : "coolwarm";
  }

  // Whether the engine runs a brin-triangle test (the intersection and frame options apply).
  bool intersects_triangles() const {
    return engine() != Engine::Hardware && !machine_->analytic() && !machine_->stock().nbuffer;
  }

  bool fast_math() const { return *knobs_.arithmetic == Arithmetic::Fast && uses_atomics() && !machine_->stock().f64; }

  // The run the display compares with ("precision" or an engine name), or "" for none.
  std::string shadow_kind() const {
    if (stage_ > 0) return "";  // a comparison run follows the first stage only
    const Display d = *knobs_.display;
    if (d == Display::Error) return ctx_->int64_atomics && !machine_->stock().nbuffer ? "precision" : "";
    return d == Display::Engines ? knobs_.compare_engine.text() : "";
  }

  Engine engine() const {
    Engine e = *knobs_.engine;  // the hardware one draws meshes in single precision
    if (machine_->stock().nbuffer) return e == Engine::Cpu ? e : Engine::PerBrin;  // its rays: a thread a brin
    return e == Engine::Hardware && (machine_->stock().f64 || machine_->analytic()) ? Engine::Fine : e;
  }

  std::string fewer_steps_reason() const override {
    return "the tool path ends after " + std::to_string(machine_->positions()) + " positions, " +
           (partition_.dynamic() ? "each step as many as a " + knobs_.submission_ms.param().text() +
                                       " ms budget allows (partition=dynamic)"
                                 : knobs_.positions_per_frame.param().text() + " a step (positions_per_frame)");
  }

  std::string timings_note() const override {
    return partition_.note() + (partition_.note().empty() ? "" : "\n") + timers_text();
  }
  // SIMSURF §16.4.3's three timers: initialisation (the machine: its buffers, uploads and
  // pipelines), execution (the milling's GPU time since the start) and finalisation (the last
  // read-back of the heights).
  std::string timers_text() const {
    char s[200];
    std::snprintf(s, sizeof s,
                  "Timers (SIMSURF §16.4.3): initialisation %.1f ms, execution %.3f ms (GPU, %zu frames), "
                  "finalisation %.2f ms (the last read-back)",
                  init_ms_, partition_.stats().gpu_ms(), partition_.stats().submissions.size(), readout_.read_ms);
    return s;
  }

  std::vector<TableData> tables() const override { return {statistics_}; }
  nlohmann::json statistics_json() const {
    nlohmann::json rows = nlohmann::json::array();
    for (auto& r : statistics_.rows) rows.push_back({{"of", r[0]}, {"what", r[1]}, {"value", r[2]}});
    return rows;
  }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    profiler_ = &prof;
    partition_.feed(prof);  // the last frame's milling time, for a dynamic partition
    if (steps == 0) return;
    if (done_ >= machine_->positions() && stage_ + 1 < stages_.size()) next_stage();
    const bool gpu_engine = engine() != Engine::Cpu || runs_user_kernel();
    uint32_t count = partition_.positions(knobs_, machine_->positions(), gpu_engine, prof.supported()) * steps;
    if (done_ >= machine_->positions() && *knobs_.replay_seconds > 0 && !replay_.played()) replay_.start();
    if (replay_.advance(steps, machine_->positions(), *knobs_.replay_seconds)) steps_done_ += steps;
    if (paused_ || done_ >= machine_->positions()) return step_shadow(cmd, 4ull * count);  // a comparison catching up
    Engine e = engine();
    if (e == Engine::Cpu && machine_->stock().f64) e = Engine::Fine;  // the CPU engine in the window: single only
    if (runs_user_kernel()) {
      machine_->record_user(cmd, *user_lowering_, uint32_t(done_), count, &prof);
    } else if (e == Engine::Cpu) {  // on the host, between frames (the GPU is idle when step() runs)
      auto h = machine_->heights();
      std::vector<Position> chunk(
          machine_->path().begin() + long(done_),
          machine_->path().begin() + long(std::min<size_t>(done_ + count, machine_->positions())));
      if (machine_->stock().nbuffer)
        mill_nbuffer_cpu(machine_->stock(), h, machine_->tool(), chunk);
      else if (machine_->analytic())
        mill_analytic_cpu(machine_->stock(), h, *machine_->analytic(), chunk);
      else
        mill_cpu(machine_->stock(), h, machine_->tool(), chunk, 0, *knobs_.intersection, *knobs_.frame,
                 *knobs_.cpu_schedule);
      machine_->set_heights(h);
    } else {
      machine_->set_atomic(*knobs_.atomic);
      machine_->set_hit_test(*knobs_.intersection);
      machine_->set_frame(*knobs_.frame);
      machine_->set_fast_math(fast_math());
      machine_->set_nbuffer_bvh(*knobs_.accelerator == Accelerator::Bvh);
      machine_->set_granularity(*knobs_.granularity);
      uint32_t group = uint32_t(std::stoul(*knobs_.workgroup));
      const auto& limits = ctx_->props.limits;
      while (group > std::min(limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations)) group /= 2;
      machine_->set_workgroup(group);
      machine_->record(cmd, e, uint32_t(done_), count, &prof);
    }
    done_ = std::min<size_t>(done_ + count, machine_->positions());
    step_shadow(cmd, 4ull * count);
    steps_done_ += steps;
    readout_.dirty = true;
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope scope(prof, cmd, "machining.draw", 0, 0);
    const auto& s = machine_->stock();
    render::StockScene sc;
    sc.nx = s.nx, sc.ny = s.ny, sc.x0 = s.x0, sc.y0 = s.y0, sc.d = s.d, sc.top = s.top;
    sc.max_cut = max_cut_guess();
    sc.height_scale = *knobs_.height_scale;
    sc.show_tool = *knobs_.show_tool;
    size_t shown = replay_.played() && done_ == machine_->positions() ? replay_.position()
                   : follow_ || done_ == 0                            ? (done_ ? done_ - 1 : 0)
                                                                      : std::min(shown_, done_ - 1);
    const auto& pos = machine_->path()[shown];
    sc.tool_rotation = tool_rotation(pos);
    sc.tool_tip = pos.tip;
    sc.tool_base = float(surface_height(s.surface, s.top, pos.tip.x, pos.tip.y));
    sc.tool_triangles = uint32_t(machine_->triangles());
    const Display display = *knobs_.display;
    sc.primitive = *knobs_.primitive;
    camera_.set_trackball(*knobs_.camera == CameraKind::Trackball);
    sc.display = display == Display::Depth && depth_field()
                     ? (readout_.field_ready ? render::StockDisplay::DepthField : render::StockDisplay::Shaded)
                 : display == Display::Depth  ? render::StockDisplay::Depth
                 : display == Display::Shaded ? render::StockDisplay::Shaded
                 : readout_.field_ready       ? render::StockDisplay::Field
                                              : render::StockDisplay::Shaded;
    sc.field_range = readout_.field_range;
    float az = *knobs_.light_azimuth * 0.0174533f, el = *knobs_.light_elevation * 0.0174533f;
    sc.light = glm::vec3(std::cos(el) * std::cos(az), std::sin(el), std::cos(el) * std::sin(az));
    view_->set_colormap(colormap());
    const bool preview = !preview_.empty() && done_ < machine_->positions();
    if (preview && !preview_keys_) {
      std::vector<uint32_t> keys(preview_.size());
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = height_key(preview_[i]);
      preview_keys_ = std::make_unique<gpu::Buffer>(
          *ctx_, keys.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      preview_keys_->upload(keys);
    }
    view_->draw(cmd, frame, preview ? *preview_keys_ : machine_->height_keys(), tool_buffer(), sc, camera_);
  }

  // SIMSURF §16.4.3's configuration: the next (tool, path) pair mills on from the surface left.
  void next_stage() {
    auto h = machine_->heights();
    machine_ = stages_[++stage_].get();
    machine_->set_heights(h);
    done_ = 0, shown_ = 0;
    shadow_.reset();
    readout_.dirty = true;
    statistics_ = statistics_table(*ctx_, *machine_, stage_names_[stage_]);
  }

  // The comparison run: made when the display asks for one, milled level with this run.
  void step_shadow(VkCommandBuffer cmd, size_t budget) {
    std::string kind = shadow_kind();
    if (kind.empty()) return shadow_.reset();
    if (!shadow_ || shadow_->kind() != kind) {
      shadow_ = std::make_unique<ShadowRun>(*ctx_, *machine_, kind, from_);
      readout_.dirty = true;
    }
    if (shadow_->done() < done_)
      shadow_->step(cmd, done_, budget, *knobs_.intersection, *knobs_.frame), readout_.dirty = true;
  }

  // Right drag orbits, the wheel zooms the camera; left drag pans; a left click re-mills a window
  // half as wide centred on the point clicked (SIMSURF §16.3.4), the surface shown meanwhile
  // interpolated from the one before.
  void pointer(const Pointer& p, const render::Frame& frame) override {
    const auto& a = frame.area;
    render::Rect vp{float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height)};
    camera_.set_trackball(*knobs_.camera == CameraKind::Trackball);
    orbit_.update(camera_, p, true, &vp);
    glm::vec3 at;
    bool on = render::hit_plane_y(camera_.ray(p.x, p.y, vp), 0.0f, at);
    if (p.left && !left_held_) press_ = {p.x, p.y}, dragged_ = false, grab_ = at, grabbed_ = on;
    if (p.left && left_held_ && std::hypot(p.x - press_.x, p.y - press_.y) > 4) dragged_ = true;
    if (p.left && dragged_ && grabbed_ && on) {  // keep the grabbed point under the pointer
      camera_.target += glm::vec3(grab_.x - at.x, 0.0f, grab_.z - at.z);
    }
    if (!p.left && left_held_ && !dragged_ && on) zoom_at(at);
    left_held_ = p.left;
  }

  // Re-mills a window half as wide centred on picture point `at` (the stock's plane).
  void zoom_at(glm::vec3 at) {
    const auto& s = machine_->stock();
    float scale = 2.0f / (float(std::max(s.nx, s.ny)) * s.d);
    float x = at.x / scale + s.x0 + 0.5f * float(s.nx - 1) * s.d,
          y = at.z / scale + s.y0 + 0.5f * float(s.ny - 1) * s.d;
    float side = float(s.nx - 1) * *knobs_.spacing;
    zoom_from_ = machine_->heights();
    knobs_.zoom_x.set(std::clamp(double(x / side), 0.0, 1.0));
    knobs_.zoom_y.set(std::clamp(double(y / side), 0.0, 1.0));
    knobs_.zoom.set(*knobs_.zoom * 2);
    params_.rebuild_pending = true;
    camera_.target = glm::vec3(0.0f, camera_.target.y, 0.0f);
  }

  void ui() override {
    update_stats();
    size_t total = machine_->positions();
    if (machine_->analytic())
      ImGui::TextWrapped("analytic %s (its %zu-triangle mesh drawn), %zu positions, %u x %u brins",
                         knobs_.tool_shape.get().c_str(), machine_->triangles(), total, machine_->stock().nx,
                         machine_->stock().ny);
    else
      ImGui::TextWrapped("%zu tool triangles, %zu positions, %u x %u brins", machine_->triangles(), total,
                         machine_->stock().nx, machine_->stock().ny);
    if (simplify_) simplification_panel(*simplify_);
    user_kernel_panel();
    if (!gcode_held_.empty()) ImGui::TextWrapped("%s", gcode_held_.c_str());
    ImGui::ProgressBar(total ? float(done_) / float(total) : 1.0f, ImVec2(ImGui::GetContentRegionAvail().x, 0));
    if (done_ < total) {
      if (ImGui::Button(paused_ ? "Resume" : "Cancel")) paused_ = !paused_;
      ImGui::SameLine();
      ImGui::TextDisabled(paused_ ? "stopped at position %zu" : "milling, %zu done", done_);
    }
    partition_.panel();
    if (!problem_.empty()) warning_text({1, 0.3f, 0.3f, 1}, "%s Paused; Restart.", problem_.c_str());
    if (done_ > 1) {  // playback: the tool anywhere along the milled part of the path
      ImGui::Checkbox("tool follows the milling", &follow_);
      if (!follow_) {
        int at = int(std::min(shown_, done_ - 1)) + 1;
        if (ImGui::SliderInt("tool at position", &at, 1, int(done_))) shown_ = size_t(at - 1);
        const auto& p = machine_->path()[std::min(shown_, done_ - 1)];
        ImGui::TextWrapped("tip (%.4g, %.4g, %.4g) axis (%.3g, %.3g, %.3g)", p.tip.x, p.tip.y, p.tip.z, p.axis.x,
                           p.axis.y, p.axis.z);
      }
    }
    if (done_ == total && total > 1) {  // SIMSURF §16.3.2's video mode
      if (ImGui::Button(replay_.running() ? "Replay again" : "Replay")) {
        if (*knobs_.replay_seconds <= 0) knobs_.replay_seconds.set(10);
        replay_.start();
      }
      ImGui::SameLine();
      ImGui::TextDisabled("the tool along the path over the finished surface in Replay (%g s) at 60 frames a second",
                          *knobs_.replay_seconds > 0 ? *knobs_.replay_seconds : 10.0);
    }
    ImGui::TextWrapped("removed volume %.6g; depth of cut: max %.4g, mean %.4g over %zu brins; heights %.5g to %.5g",
                       readout_.removed, readout_.max_depth, readout_.cut.mean_depth, readout_.cut.cut,
                       readout_.cut.min_height, readout_.cut.max_height);
    if (!preview_.empty() && done_ < total)
      ImGui::TextDisabled("zoomed: the surface before, interpolated, until re-milled");
    if (*knobs_.zoom > 1 && ImGui::Button("Zoom out")) {
      zoom_from_ = machine_->heights();
      knobs_.zoom.set(*knobs_.zoom / 2);
      params_.rebuild_pending = true;
    }
    comparison_panel(*knobs_.display, machine_->stock().nbuffer, ctx_->int64_atomics, shadow_.get(), done_,
                     readout_.comparison, readout_.field_range);
    memory_panel(*machine_);
    statistics_panel(statistics_);
    torn_panel(*ctx_, torn_);
    if (ImGui::Button("Keep as stock")) start_ = machine_->heights();  // the next path starts from this surface
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Restart and every new path start from the surface as it is now");
    if (!start_.empty()) {
      ImGui::SameLine();
      if (ImGui::Button("Fresh stock")) start_.clear();
    }
    if (!readout_.profile.empty()) {
      plot(profile_plot());
      ImGui::TextWrapped("profile: Ra %.4g, Rz %.4g (ISO 4287, 5 sampling lengths)", readout_.rough.ra,
                         readout_.rough.rz);
    }
    ImGui::TextDisabled("right drag: orbit; wheel: zoom; left drag: pan; left click: re-mill x2 there");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    const auto& s = machine_->stock();
    write_npy(dir / "heights.npy", machine_->heights(), {s.ny, s.nx});
    if (s.nbuffer) {
      auto rays = surface_rays(s);
      write_npy(dir / "rays.npy", std::vector<float>(&rays[0].x, &rays[0].x + 4 * rays.size()), {s.ny, s.nx, 4});
    }
    readout_.dirty = true;
    update_stats(true);
    nlohmann::json compared;
    if (!readout_.comparison.ulps.empty()) {
      write_npy(dir / "compared_ulps.npy", readout_.comparison.ulps, {s.ny, s.nx});
      compared = to_json(readout_.comparison);
      compared["with"] = shadow_->kind();
    }
    const std::string engine_name =
        runs_user_kernel() ? "your kernel (machining/atomic-lowering)" : engine_names()[size_t(engine())];
    return {{"comparison", compared},
            {"arrays", s.nbuffer
                           ? nlohmann::json{{"heights.npy",
                                             "float32 [ny, nx]: the N-buffer's ray lengths from the surface along its "
                                             "normal (0 uncut, negative cut), row j at y0 + j·d"},
                                            {"rays.npy",
                                             "float32 [ny, nx, 4]: each ray's unit normal xyz and the "
                                             "surface's height at its brin"}}
                           : nlohmann::json{{"heights.npy", "float32 [ny, nx]: brin heights, row j at y0 + j·d"}}},
            {"rays", s.nbuffer ? "normal" : "vertical"},
            {"surface", knobs_.surface.text()},
            {"positions_done", done_},
            {"positions", machine_->positions()},
            {"gcode", gcode_held_},
            {"triangles", machine_->triangles()},
            {"tool_simplification", simplify_ ? to_json(*simplify_) : nlohmann::json()},
            {"engine", engine_name},
            {"atomic", knobs_.atomic.text()},
            {"intersection", knobs_.intersection.text()},
            {"frame", knobs_.frame.text()},
            {"tool_model", machine_->analytic() ? "analytic" : "mesh"},
            {"removed_volume", readout_.removed},
            {"display", knobs_.display.text()},
            {"zoom_preview", !preview_.empty() && done_ < machine_->positions()},
            {"arithmetic", fast_math() ? "fast" : "precise"},
            {"granularity", machine_->granularity()},
            {"workgroup", machine_->workgroup()},
            {"mean_depth", readout_.cut.mean_depth},
            {"brins_cut", readout_.cut.cut},
            {"min_height", readout_.cut.min_height},
            {"max_height", readout_.cut.max_height},
            {"max_depth", readout_.max_depth},
            {"profile_ra", readout_.rough.ra},
            {"profile_rz", readout_.rough.rz},
            {"partition", partition_.json()},
            {"stages", stage_names_},
            {"stage", stage_},
            {"timers_ms",
             {{"initialisation", init_ms_},
              {"execution_gpu", partition_.stats().gpu_ms()},
              {"finalisation", readout_.read_ms}}},
            {"statistics", statistics_json()}};
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return machining::bench(ctx, options);
  }

 private:
  const gpu::Buffer& tool_buffer() {
    if (!tool_gpu_ || tool_for_ != machine_) {
      std::vector<glm::vec4> v;
      for (auto& p : machine_->tool().vertices) v.emplace_back(p, 0.0f);
      tool_gpu_ = std::make_unique<gpu::Buffer>(*ctx_, v.size() * 16,
                                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      tool_gpu_->upload(v);
      tool_for_ = machine_;
    }
    return *tool_gpu_;
  }

  // The engine line, or what runs in its place: the user's kernel (exercise machining/atomic-lowering).
  void user_kernel_panel() {
    if (!user_lowering_) ImGui::TextWrapped("engine: %s", engine_names()[size_t(engine())].c_str());
    if (runs_user_kernel())
      ImGui::TextWrapped(
          "engine: your kernel (exercise machining/atomic-lowering), an invocation a (triangle, position) pair; "
          "its own intersection and atomic: the engine, atomicity, intersection, frame, arithmetic, granularity and "
          "workgroup knobs wait until it stops");
    else if (user_lowering_)
      warning_text({1, 0.75f, 0.3f, 1}, "engine: %s; your kernel (exercise machining/atomic-lowering) waits: %s",
                   engine_names()[size_t(engine())].c_str(), user_kernel_unfit(*user_lowering_).c_str());
    if (!refused_.empty())
      warning_text({1, 0.75f, 0.3f, 1},
                   "This lab could not run your kernel (exercise machining/atomic-lowering) when offered: %s. "
                   "Change that, then tick \"Run the lab on my kernel\" again.",
                   refused_.c_str());
  }

  float max_cut_guess() const { return readout_.max_depth > 0 ? float(readout_.max_depth) : 1.0f; }

  // Whether the depth of cut is drawn from a field (a curved or N-buffer stock: not top - height).
  bool depth_field() const {
    return machine_->stock().nbuffer || machine_->stock().surface.shape != SurfaceShape::Flat || !start_.empty();
  }

  // The read-backs (readout_), with the GPU idle (the window waits for the frame first); the
  // watchdog: a height that is not finite pauses the milling and says where.
  void update_stats(bool force = false) {
    ReadoutView v{
        *knobs_.display,
        knobs_.display.text() + knobs_.compare_engine.text() + knobs_.profile_along.text() + knobs_.profile_row.text(),
        *knobs_.profile_along == Axis::X, *knobs_.profile_row, depth_field()};
    bool milling = done_ < machine_->positions() && !paused_;
    int64_t bad = readout_.update(*machine_, v, milling, force, from_, areas_, shadow_.get(), done_, *view_);
    if (bad >= 0 && problem_.empty()) {
      problem_ = "the stock's brin " + std::to_string(bad) + " became " + std::to_string(machine_->heights()[bad]) +
                 " after " + std::to_string(done_) + " positions";
      paused_ = true;
    }
  }

  MachiningKnobs knobs_;
  gpu::Context* ctx_ = nullptr;
  std::vector<machining::TornRace> torn_;         // the last race of the "two halves" panel (SIMSURF 7.3.2)
  Machine* machine_ = nullptr;                    // the stage milling now: stages_[stage_]
  std::vector<std::unique_ptr<Machine>> stages_;  // this path, then those of `then` (SIMSURF §16.4.3)
  std::vector<std::string> stage_names_;
  size_t stage_ = 0;
  std::unique_ptr<render::StockView> view_;
  std::unique_ptr<gpu::Buffer> tool_gpu_;
  const Machine* tool_for_ = nullptr;
  render::OrbitCamera camera_{glm::vec3(0.0f), 3.0f, 0.6f, 0.8f};
  size_t done_ = 0, shown_ = 0;
  bool follow_ = true;        // the tool drawn at the last milled position, or at shown_ (playback)
  std::vector<float> start_;  // a kept surface's values (empty: the stock's surface)
  std::vector<float> from_;   // what this run started from: start_, or starting_values()
  std::vector<float> areas_;  // N-buffer: a brin's patch of surface, d² / n_z, in d²
  bool paused_ = false;
  StockReadout readout_;
  std::unique_ptr<ShadowRun> shadow_;        // the run the display compares with
  FramePartition partition_;                 // positions a frame: fixed or fed back from the GPU's time
  Replay replay_;                            // SIMSURF §16.3.2's video mode, once the path is milled
  TableData statistics_;                     // SIMSURF §16.4.3, made with the machine
  double init_ms_ = 0;                       // the machine's making: §16.4.3's initialisation
  const gpu::Profiler* profiler_ = nullptr;  // the session's, seen in step(): problem() reads its last frame
  std::vector<float> zoom_from_, preview_;   // the zoom: the surface before, and it on the new grid
  std::unique_ptr<gpu::Buffer> preview_keys_;
  bool left_held_ = false, dragged_ = false, grabbed_ = false;
  glm::vec2 press_{0.0f};
  glm::vec3 grab_{0.0f};
  std::string problem_, gcode_held_;
  std::optional<SimplifyReadout> simplify_;              // the tool's simplification (tool_simplify), if asked
  const exercise::UserKernel* user_lowering_ = nullptr;  // use_kernel(): the user's lowering kernel, not owned
  std::string refused_;                                  // why use_kernel() refused the last kernel offered
  OrbitControl orbit_;
};

}  // namespace

LabEntry machining_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<MachiningLab>()); },
          {{"--tool", "tool_file", "FILE.stl"},
           {"--tool-shape", "tool_shape", "sphere|torus|cone|flat"},
           {"--path", "path_file", "FILE (.csv/.txt positions, .nc/.ngc/.gcode/.tap G-code)"},
           {"--path-gen", "path", "single|random|spiral|downspiral|volcano|zigzag"}}};
}
