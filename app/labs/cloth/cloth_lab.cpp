// The cloth lab's knobs, panel and dump (seed 000, §4.1). Math: compute/cloth/ (its
// benchmark: compute/cloth/bench.cpp); picture: render/cloth/cloth_view.
#include "app/core/lab.h"
#include "app/widgets/plot.h"
#include "app/widgets/warning_text.h"
#include "compute/cloth/bench.h"
#include "compute/cloth/cloth.h"
#include "compute/cloth/tiles.h"
#include "compute/io/npy.h"
#include "compute/measure/host_trip.h"
#include "compute/measure/timer.h"
#include "render/cloth/cloth_view.h"

#include <imgui.h>

#include <cmath>
#include <cstring>
#include <deque>

namespace {

const char* kPinNames[4] = {"pin_top_left", "pin_top_right", "pin_bottom_left", "pin_bottom_right"};

// The cloth's starting pose; its text is compute/cloth's name for it (cloth::initial_positions).
enum class Pose { Drape, Hang };
// Where the picture's particles come from: the simulation's buffers, or Bleton 2005's trip
// through the CPU (compute/measure/host_trip.h).
enum class DisplayPath { Direct, ReadBack };

class ClothLab : public Lab {
 public:
  ClothLab() {
    const cloth::Config d;  // the defaults: a cloth that settles on the sphere and stays there
    params_.group("Cloth");
    size_ = params_.add_int("size", int(d.width), 8, 4096, "particles along each side")
                .labelled("Particles a side")
                .rebuilds();
    pose_ =
        params_
            .add_choice("pose", {{Pose::Drape, "drape"}, {Pose::Hang, "hang"}}, Pose::Drape,
                        "drape: flat above the sphere, unpinned; hang: upright in front of it; a pose sets the pins")
            .labelled("Pose")
            .rebuilds();
    shear_ = params_.add_bool("shear", d.shear, "diagonal springs").labelled("Shear springs");
    bend_ = params_.add_bool("bend", d.bend, "springs two particles apart").labelled("Bend springs");
    attachments_ =
        params_
            .add_bool("attachments", d.attachments,
                      "keep each particle within its flat-cloth distance of every pinned corner (Kim et al. 2012)")
            .labelled("Long-range attachments");
    const char* pin_labels[4] = {"Pin top left", "Pin top right", "Pin bottom left", "Pin bottom right"};
    for (int k = 0; k < 4; ++k)
      pins_[k] = params_.add_bool(kPinNames[k], false, "hold this corner where it is (the pose sets them)")
                     .labelled(pin_labels[k]);
    params_.group("Physics");
    damping_ = params_.add_float("damping", d.damping, 0.0, 1.0, "d in x' = (1+d)x - d x* + a dt² per step (1: none)")
                   .labelled("Damping");
    stiffness_ = params_.add_float("stiffness", d.stiffness, 0.01, 1.0, "scales every constraint correction")
                     .labelled("Stiffness");
    iterations_ =
        params_.add_int("iterations", int(d.iterations), 1, 256, "constraint relaxations per substep (n_iter)")
            .labelled("Relaxations a substep");
    substeps_ = params_
                    .add_int("substeps", d.substeps, 1, 64,
                             "Verlet steps of dt/substeps in each step, each relaxed n_iter times (the thesis: 1)")
                    .labelled("Substeps a step");
    dt_ = params_.add_float("dt", 1.0 / 60.0, 1e-4, 0.1, "time step, s").labelled("Time step", "s");
    gravity_ = params_.add_float("gravity", 9.81, 0.0, 50.0, "m/s², downwards").labelled("Gravity", "m/s²");
    friction_ =
        params_.add_float("friction", d.friction, 0.0, 2.0, "Coulomb friction of the sphere and the ground (0: none)")
            .labelled("Friction");
    thickness_ =
        params_.add_float("thickness", d.thickness, 0.0, 0.1, "m the cloth keeps from the sphere and the ground")
            .labelled("Thickness", "m");
    wind_ =
        params_.add_float("wind", 0.0, 0.0, 40.0, "wind acceleration along the normal, m/s²").labelled("Wind", "m/s²");
    wind_direction_ =
        params_.add_float("wind_direction", 90.0, -180.0, 180.0, "where the wind blows to, degrees around the vertical")
            .labelled("Wind direction", "degrees");
    params_.group("Solver");
    branching_ =
        params_
            .add_choice(
                "branching", {{cloth::Branching::Branching, "branching"}, {cloth::Branching::SubStreams, "substreams"}},
                cloth::Branching::Branching,
                "branching: one kernel tests the borders; substreams: the thesis's 9 (interior, edges, corners)")
            .labelled("Border kernels");
    order_ = params_
                 .add_choice(
                     "order", {{cloth::Order::Jacobi, "jacobi"}, {cloth::Order::GaussSeidel, "gauss-seidel"}}, d.order,
                     "jacobi: gather from the previous iterate (the thesis); gauss-seidel: colour by colour, in "
                     "place")
                 .labelled("Relaxation order");
    correction_ =
        params_
            .add_choice(
                "correction", {{cloth::Correction::Scaled, "scaled"}, {cloth::Correction::Thesis, "thesis"}},
                d.correction,
                "Jacobi only: thesis (half the gap a spring, summed; blows up from stiffness 0.6) or scaled (stable)")
            .labelled("Jacobi correction");
    method_ =
        params_
            .add_choice(
                "method",
                {{cloth::Method::Tiles, "tiles"},
                 {cloth::Method::Kernels, "kernels"},
                 {cloth::Method::ShiftMatrices, "shift"}},
                d.method,
                "tiles: Gauss-Seidel in shared memory; kernels: a dispatch a colour; shift: the thesis's matrices")
            .labelled("Method");
    tile_ =
        params_
            .add_int("tile", 0, 0, 4096,
                     "method tiles: cells a side a workgroup writes (0: chosen to fit shared memory and fill the GPU)")
            .labelled("Tile side");
    tile_relaxations_ =
        params_
            .add_int(
                "tile_relaxations", 0, 0, int(cloth::kMaxTileRelaxations),
                "method tiles: relaxations a dispatch, each widening the halo by 6 cells, 14 with bend (0: chosen)")
            .labelled("Relaxations a tile dispatch");
    steps_per_frame_ =
        params_.add_int("steps_per_frame", 1, 0, 32, "simulation steps per frame (0 pauses)").labelled("Steps a frame");
    display_ =
        params_
            .add_choice("display", {{DisplayPath::Direct, "direct"}, {DisplayPath::ReadBack, "readback"}},
                        DisplayPath::Direct,
                        "direct: draw from the GPU's buffers; readback: through the CPU, as Bleton 2005's table 4.1")
            .labelled("Display path");
    params_.group("Obstacles");
    sphere_ = params_.add_bool("sphere", d.sphere_on, "a sphere the cloth may not enter").labelled("Sphere");
    sphere_x_ = params_.add_float("sphere_x", d.sphere.x, -3.0, 3.0, "sphere centre x").labelled("Sphere x", "m");
    sphere_y_ = params_.add_float("sphere_y", d.sphere.y, -3.0, 3.0, "sphere centre y").labelled("Sphere y", "m");
    sphere_z_ = params_.add_float("sphere_z", d.sphere.z, -3.0, 3.0, "sphere centre z").labelled("Sphere z", "m");
    sphere_radius_ =
        params_.add_float("sphere_radius", d.sphere.w, 0.05, 2.0, "sphere radius, m").labelled("Sphere radius", "m");
    ground_ = params_.add_bool("ground", d.ground_on, "a ground plane").labelled("Ground");
    ground_y_ = params_.add_float("ground_y", -1.2, -5.0, 2.0, "ground height, m").labelled("Ground height", "m");
  }

  std::string name() const override { return "cloth"; }
  std::string title() const override { return "Cloth by Verlet and constraints (Bleton 2005, 4.1)"; }

  cloth::Config config() const {
    cloth::Config c;
    c.width = c.height = *size_;
    c.damping = *damping_;
    c.stiffness = *stiffness_;
    c.iterations = *iterations_;
    c.substeps = *substeps_;
    c.attachments = *attachments_;
    c.friction = *friction_;
    c.thickness = *thickness_;
    c.dt = float(*dt_);
    c.gravity = {0.0f, -*gravity_, 0.0f};
    float az = *wind_direction_ * 0.0174533f, w = *wind_;
    c.wind = {w * std::sin(az), 0.0f, w * std::cos(az)};
    c.shear = *shear_;
    c.bend = *bend_;
    c.branching = *branching_;
    c.order = *order_;
    // The user's colour kernel runs one dispatch a colour: the kernels method (use_kernel()).
    c.method = user_colours_ && c.order == cloth::Order::GaussSeidel ? cloth::Method::Kernels : *method_;
    c.tile = *tile_;
    c.tile_relaxations = *tile_relaxations_;
    c.correction = *correction_;
    c.sphere_on = *sphere_;
    c.sphere = {*sphere_x_, *sphere_y_, *sphere_z_, *sphere_radius_};
    c.ground_on = *ground_;
    c.ground = *ground_y_;
    return c;
  }

  void build(gpu::Context& ctx) override {
    auto c = config();
    cloth::check(c);
    if (view_ && &ctx != ctx_) view_.reset(), read_back_ = gpu::HostTrip();
    auto sim = std::make_unique<cloth::Simulation>(ctx, c);
    sim->use_colours(user_colours_);
    if (!view_) view_ = std::make_unique<render::ClothView>(ctx);
    ctx_ = &ctx;
    sim_ = std::move(sim);
    restart();
    params_.rebuild_pending = false;
  }

  // The exercise cloth/colour's kernel, once it passed its check, relaxes the springs (with the
  // order gauss-seidel, by the kernels method whatever the method knob says); project.comp adds
  // the contacts.
  bool use_kernel(const std::string& op, const exercise::UserKernel* kernel) override {
    if (op != "cloth.colour") return false;
    user_colours_ = kernel;
    if (sim_) sim_->use_colours(kernel);
    return true;
  }

  void restart() override {
    auto c = sim_->config;
    if (*pose_ != applied_pose_) {  // a new pose brings its pins; the user may change them after
      applied_pose_ = *pose_;
      for (int k = 0; k < 4; ++k) pins_[k].set(applied_pose_ == Pose::Hang && k < 2);
    }
    auto p = cloth::initial_positions(c, pose_.text());
    for (int k = 0; k < 4; ++k) {
      pinned_[k] = *pins_[k];
      if (pinned_[k]) p[cloth::corner_index(c, k)].w = 0.0f;
    }
    sim_->set_state(p, p);
    steps_done_ = 0;
    stats_ = sim_->last_stats();
    kinetic_.clear();
    blown_up_ = false;
    problem_.clear();
    dragging_ = -1;
  }

  std::vector<Inspectable> inspectables() const override {
    uint32_t w = sim_->config.width;
    return {{"positions (x, y, z, inverse mass)", {&sim_->position_buffer()}, "vec4", w},
            {"previous positions", {&sim_->previous_buffer()}, "vec4", w},
            {"normals", {&sim_->normal_buffer()}, "vec4", w}};
  }
  std::vector<StatePart> state_parts() const override {
    return {{&sim_->position_buffer()}, {&sim_->previous_buffer()}};
  }
  void restore_state(const std::vector<std::vector<uint8_t>>& parts, uint64_t step) override {
    sim_->restore(as_vector<glm::vec4>(parts[0]), as_vector<glm::vec4>(parts[1]));
    steps_done_ = step;
    stats_ = sim_->last_stats();
    kinetic_.clear();
    blown_up_ = false;
    problem_.clear();
  }

  render::Legend legend() const override {
    char t[64];
    std::snprintf(t, sizeof t, "t = %.3f s, step %llu", double(steps_done_) * *dt_, (unsigned long long)steps_done_);
    return {{legend_title(), t, legend_values(size_, iterations_, substeps_, order_, correction_, method_)}, {}};
  }

  uint32_t steps_per_frame() const override { return *steps_per_frame_; }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    read_stats();
    auto c = config();
    c.width = sim_->config.width, c.height = sim_->config.height;
    sim_->validate(c);
    sim_->config = c;
    for (int k = 0; k < 4; ++k) {  // pins toggled in the panel (a held corner stays held)
      bool want = *pins_[k];
      if (want != pinned_[k] && k != dragging_) sim_->record_pin(cmd, cloth::corner_index(c, k), want);
      pinned_[k] = want;
    }
    if (dragging_ >= 0) sim_->record_hold(cmd, cloth::corner_index(c, dragging_), drag_to_);
    if (released_ >= 0) {
      if (!pinned_[released_]) sim_->record_pin(cmd, cloth::corner_index(c, released_), false);
      released_ = -1;
    }
    if (blown_up_) return;
    sim_->record_steps(cmd, &prof, steps);
    steps_done_ += steps;
  }

  // Display path readback: the particles go to the CPU and back before the picture draws them.
  // The frame being recorded has not run yet, so the window's picture shows the previous frame's
  // step (complete: the window waits for it); a headless picture, drawn after its steps, the last.
  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    const auto& c = sim_->config;
    uint32_t side = std::min(c.width, render::ClothView::kMaxMeshSide);
    const bool through_cpu = *display_ == DisplayPath::ReadBack;
    if (through_cpu) read_back_.carry(*ctx_, {&sim_->position_buffer(), &sim_->normal_buffer()}), ++read_backs_;
    gpu::Profiler::Scope scope(prof, cmd, "cloth.draw", 32.0 * side * side, 0);
    view_->draw(cmd, frame, through_cpu ? read_back_.copy(0) : sim_->position_buffer(),
                through_cpu ? read_back_.copy(1) : sim_->normal_buffer(), scene(), camera_);
  }

  std::string headless_report() override {
    if (*display_ != DisplayPath::ReadBack || read_backs_ == 0) return "";
    return "cloth: " + read_back_text() + "\n";
  }

  // Left: pick the corner nearest the cursor on screen and drag it in the plane through it
  // facing the camera; right: orbit; wheel: zoom.
  void pointer(const Pointer& p, const render::Frame& frame) override {
    auto vp = render::ClothView::viewport(frame);
    orbit_.update(camera_, p);
    glm::mat4 vpm = camera_.view_proj(vp.w / std::max(vp.h, 1.0f));
    if (p.left && dragging_ < 0 && !left_held_) {
      float best = 30.0f;  // pixels
      for (int k = 0; k < 4; ++k) {
        glm::vec4 q = vpm * glm::vec4(glm::vec3(stats_.corners[k]), 1.0f);
        if (q.w <= 0) continue;
        float sx = vp.x + (q.x / q.w * 0.5f + 0.5f) * vp.w, sy = vp.y + (q.y / q.w * 0.5f + 0.5f) * vp.h;
        float d = std::hypot(sx - p.x, sy - p.y);
        if (d < best) best = d, dragging_ = k, drag_to_ = glm::vec3(stats_.corners[k]);
      }
    }
    if (p.left && dragging_ >= 0) {
      auto ray = camera_.ray(p.x, p.y, vp);
      glm::vec3 facing = glm::normalize(camera_.target - camera_.eye());
      float denom = glm::dot(ray.dir, facing);
      if (std::fabs(denom) > 1e-6f) {
        float t = glm::dot(drag_to_ - ray.origin, facing) / denom;
        if (t > 0) drag_to_ = ray.origin + t * ray.dir;
      }
    }
    if (!p.left && dragging_ >= 0) released_ = dragging_, dragging_ = -1;
    left_held_ = p.left;
  }

  void ui() override {
    read_stats();
    const auto& c = sim_->config;
    if (c.tiled()) {
      auto t = sim_->tile_plan();
      ImGui::TextWrapped("%u x %u particles, rest length %.4f m, %u dispatches a step: %s", c.width, c.height, c.rest(),
                         sim_->dispatches_per_step(), tiles_text(t).c_str());
    } else {
      ImGui::TextWrapped("%u x %u particles, rest length %.4f m, %u dispatches a relaxation%s", c.width, c.height,
                         c.rest(), sim_->dispatches_per_relaxation(),
                         c.method == cloth::Method::ShiftMatrices ? " (4 shift-matrix products, then gpuVerlet)"
                         : c.method == cloth::Method::Tiles ? " (tiles relax by gauss-seidel: jacobi runs its kernels)"
                                                            : "");
    }
    if (user_colours_)
      ImGui::TextWrapped(c.order == cloth::Order::GaussSeidel
                             ? "The springs relax on your kernel (exercise cloth/colour), a dispatch a colour; "
                               "project.comp adds the contacts."
                             : "Your colour kernel (exercise cloth/colour) runs with order = gauss-seidel.");
    ImGui::TextWrapped("steps %llu", (unsigned long long)steps_done_);
    ImGui::TextWrapped("stretch: mean %.2f %%, max %.2f %%", 100 * stats_.mean_stretch, 100 * stats_.max_stretch);
    ImGui::TextWrapped("kinetic energy %.3g J (1 kg cloth)", stats_.kinetic);
    if (!kinetic_.empty())
      for (auto& p : plots()) plot(p);
    if (c.sphere_on) ImGui::TextWrapped("closest to the sphere: %.4f m", stats_.min_sphere_gap);
    if (*display_ == DisplayPath::ReadBack && read_backs_ > 0) ImGui::TextWrapped("%s", read_back_text().c_str());
    if (blown_up_) warning_text({1, 0.3f, 0.3f, 1}, "%s Paused.", problem_.c_str());
    ImGui::TextDisabled("left drag a corner: move it; right drag: orbit; wheel: zoom");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    const auto& c = sim_->config;
    auto flat = [](const std::vector<glm::vec4>& v) {
      std::vector<float> f(v.size() * 4);
      std::memcpy(f.data(), v.data(), f.size() * sizeof(float));
      return f;
    };
    write_npy(dir / "positions.npy", flat(sim_->positions()), {c.height, c.width, 4});
    write_npy(dir / "previous.npy", flat(sim_->previous()), {c.height, c.width, 4});
    auto s = sim_->stats();
    return {{"arrays",
             {{"positions.npy", "float32 [rows, cols, 4]: x, y, z, inverse mass (0 = pinned)"},
              {"previous.npy", "float32 [rows, cols, 4]: the previous step's"}}},
            {"steps", steps_done_},
            {"max_stretch", s.max_stretch},
            {"mean_stretch", s.mean_stretch},
            {"max_y", s.max_y},
            {"rms_stretch", s.rms_stretch},
            {"kinetic_energy", s.kinetic},
            {"min_y", s.min_y},
            {"min_sphere_gap", s.min_sphere_gap},
            {"non_finite", s.non_finite}};
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    render::ClothView view(ctx);
    render::OffscreenTarget target(ctx, 1024, 768);  // the display rows: cloth, sphere and ground
    render::OrbitCamera camera{glm::vec3(0.0f, -0.1f, 0.0f), 4.2f, 0.6f, 0.35f};
    return cloth::bench(
        ctx, options, config(), pose_.text(),
        [&](VkCommandBuffer cmd, const cloth::Config& c, const gpu::Buffer& positions, const gpu::Buffer& normals) {
          const float clear[4] = {0, 0, 0, 1};
          render::ClothScene sc{c.width, c.height, c.sphere_on, c.sphere, c.ground_on, c.ground};
          render::begin_rendering(cmd, target.frame(), clear);
          view.draw(cmd, target.frame(), positions, normals, sc, camera);
          render::end_rendering(cmd);
        });
  }

  std::vector<PlotData> plots() const override {
    if (kinetic_.empty()) return {};
    return {{{"cloth-kinetic-energy", "frames (the last 600)", "kinetic energy (J)", true, 90},
             {},
             {kinetic_.begin(), kinetic_.end()}}};
  }

  std::string problem() override {
    read_stats();
    return problem_;
  }

 private:
  render::ClothScene scene() const {
    const auto& c = sim_->config;
    return {c.width, c.height, c.sphere_on, c.sphere, c.ground_on, c.ground, {0.4f, 0.8f, 0.45f}};
  }

  // The last trip through the CPU, in words (the panel and the headless report).
  std::string read_back_text() const {
    return "display through the CPU (Bleton 2005, table 4.1): " + read_back_.last().text();
  }

  // What the tiles do, in words (the panel's first line).
  std::string tiles_text(const cloth::TilePlan& t) const {
    char s[200];
    if (t.whole())
      std::snprintf(s, sizeof s, "the whole cloth in one workgroup's shared memory, up to %u relaxations a dispatch",
                    t.relaxations);
    else
      std::snprintf(s, sizeof s,
                    "%u x %u tiles of %u cells a side, each relaxed with a halo of %u, %u relaxation%s a dispatch",
                    t.groups_x, t.groups_y, t.tile_w, t.halo, t.relaxations, t.relaxations == 1 ? "" : "s");
    return s;
  }

  // The last submission's stats (complete: the window waits for the frame before the next).
  void read_stats() {
    if (sim_->steps() == read_) return;
    read_ = sim_->steps();
    stats_ = sim_->last_stats();
    kinetic_.push_back(stats_.kinetic);
    if (kinetic_.size() > 600) kinetic_.pop_front();
    if (stats_.non_finite > 0 && !blown_up_) {
      blown_up_ = true;
      problem_ = "the cloth blew up after " + std::to_string(steps_done_) + " steps (" +
                 std::to_string(stats_.non_finite) + " particles NaN/inf)" + blow_up_hint() + ".";
    }
  }

  // What to change: the thesis's Jacobi correction overshoots at high stiffness (Bleton 2005,
  // 4.1.2.2: stiffness governs stability); the scaled one holds, so something else went wrong.
  std::string blow_up_hint() const {
    const auto& c = sim_->config;
    char s[32];
    std::snprintf(s, sizeof s, "%.2g", c.stiffness);
    if (c.order == cloth::Order::Jacobi && c.correction == cloth::Correction::Thesis)
      return std::string(": the thesis's correction overshoots at stiffness ") + s +
             " (Bleton 2005, 4.1.2.2: stiffness governs stability); lower Stiffness to 0.5 or set Jacobi correction "
             "to scaled, then Restart";
    return std::string(" at stiffness ") + s + ": lower Stiffness or the time step, or add substeps, then Restart";
  }

  Knob<uint32_t> size_, iterations_, substeps_, steps_per_frame_, tile_, tile_relaxations_;
  Choice<Pose> pose_;
  Choice<DisplayPath> display_;
  Knob<bool> shear_, bend_, attachments_, pins_[4], sphere_, ground_;
  Knob<double> dt_;  // read in double for the legend's time
  Knob<float> damping_, stiffness_, gravity_, friction_, thickness_, wind_, wind_direction_;
  Knob<float> sphere_x_, sphere_y_, sphere_z_, sphere_radius_, ground_y_;
  Choice<cloth::Branching> branching_;
  Choice<cloth::Order> order_;
  Choice<cloth::Method> method_;
  Choice<cloth::Correction> correction_;

  gpu::Context* ctx_ = nullptr;
  std::unique_ptr<cloth::Simulation> sim_;
  const exercise::UserKernel* user_colours_ = nullptr;  // use_kernel(): the user's colour kernel, not owned
  std::unique_ptr<render::ClothView> view_;
  gpu::HostTrip read_back_;  // display path readback: the copies the picture draws
  uint64_t read_backs_ = 0;
  render::OrbitCamera camera_{glm::vec3(0.0f, -0.1f, 0.0f), 4.2f, 0.6f, 0.35f};
  cloth::Stats stats_;
  std::deque<float> kinetic_;
  uint64_t read_ = 0;
  Pose applied_pose_ = Pose::Drape;  // the pose whose pins were last applied (the default's: none)
  bool pinned_[4] = {};
  bool blown_up_ = false;
  std::string problem_;
  int dragging_ = -1, released_ = -1;
  glm::vec3 drag_to_{0.0f};
  OrbitControl orbit_;
  bool left_held_ = false;
};

}  // namespace

LabEntry cloth_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<ClothLab>()); }, {}};
}
