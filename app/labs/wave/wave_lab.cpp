// The wave lab's knobs, panel and dump (seed 000, §4.2). Math: compute/wave/ (its benchmark:
// compute/wave/bench.cpp, drawn here); picture: render/wave/water_view.
#include "app/core/assets.h"
#include "app/core/lab.h"
#include "app/widgets/plot.h"
#include "app/widgets/warning_text.h"
#include "compute/io/npy.h"
#include "compute/measure/host_trip.h"
#include "compute/measure/timer.h"
#include "compute/wave/bench.h"
#include "compute/wave/wave.h"
#include "render/wave/water_view.h"

#include <imgui.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <random>

namespace {

// The starting disturbance (the "preset" knob) and the picture (the "view" knob).
enum class Start { Drop, Drops, Line, Rain, Calm };
enum class View { Surface, Top };
// Where the picture's heights come from: the simulation's buffer, or Bleton 2005's trip through
// the CPU (compute/measure/host_trip.h).
enum class DisplayPath { Direct, ReadBack };
// The scheme knob: auto (the default) is the solver path's own scheme, the thesis's
// Crank–Nicolson (seed) on the thesis path and Newmark on the modern one, so that choosing the
// thesis's path runs the thesis's scheme; a scheme named runs on either path.
enum class SchemeKnob { Auto, Newmark, Seed, PrintedA, PrintedB, PrintedM };

wave::Scheme resolve(SchemeKnob k, wave::Solver solver) {
  switch (k) {
    case SchemeKnob::Auto:
      return solver == wave::Solver::Thesis ? wave::Scheme::Seed : wave::Scheme::Newmark;
    case SchemeKnob::Newmark:
      return wave::Scheme::Newmark;
    case SchemeKnob::Seed:
      return wave::Scheme::Seed;
    case SchemeKnob::PrintedA:
      return wave::Scheme::PrintedA;
    case SchemeKnob::PrintedB:
      return wave::Scheme::PrintedB;
    case SchemeKnob::PrintedM:
      return wave::Scheme::PrintedM;
  }
  return wave::Scheme::Newmark;
}

class WaveLab : public Lab {
 public:
  WaveLab() {
    using wave::Scheme;
    params_.group("Simulation");
    size_ = params_.add_int("size", 256, 16, 8192, "grid side in cells (rounded down to a multiple of 4)")
                .labelled("Grid size", "cells")
                .rebuilds();
    c_ = params_.add_float("c", 4.0, 0.01, 1000.0, "wave speed, cells·dx per second")
             .labelled("Wave speed", "units/s")
             .rebuilds();
    dt_ = params_.add_float("dt", 1.0 / 60.0, 1e-4, 1.0, "time step, seconds").labelled("Time step", "s").rebuilds();
    dx_ = params_.add_float("dx", 1.0 / 16.0, 1e-3, 10.0, "cell size")
              .labelled("Cell size", "units")
              .rebuilds()
              .log_scaled();
    damping_ = params_.add_float("damping", 0.0, 0.0, 0.2, "fraction of the velocity removed each step")
                   .labelled("Damping", "per step")
                   .rebuilds();
    sponge_ = params_.add_int("sponge", 0, 0, 512, "absorbing border width in cells (0: walls reflect)")
                  .labelled("Sponge width", "cells")
                  .rebuilds();
    steps_per_frame_ =
        params_.add_int("steps_per_frame", 1, 0, 64, "simulation steps per frame (0 pauses)").labelled("Steps a frame");
    params_.group("Solver");
    std::vector<std::pair<SchemeKnob, std::string>> schemes = {{SchemeKnob::Auto, "auto"}};
    for (auto [k, s] : {std::pair{SchemeKnob::Newmark, Scheme::Newmark},
                        {SchemeKnob::Seed, Scheme::Seed},
                        {SchemeKnob::PrintedA, Scheme::PrintedA},
                        {SchemeKnob::PrintedB, Scheme::PrintedB},
                        {SchemeKnob::PrintedM, Scheme::PrintedM}})
      schemes.push_back({k, wave::scheme_name(s)});
    scheme_ =
        params_
            .add_choice(
                "scheme", schemes, SchemeKnob::Auto,
                "auto: the path's own; newmark keeps energy; seed: the thesis's, damps; printed-a, -b, -m: misprints")
            .labelled("Time scheme")
            .rebuilds();
    storage_ = params_
                   .add_choice("storage", {{wave::Storage::Stencil, "stencil"}, {wave::Storage::Banded, "banded"}},
                               wave::Storage::Stencil,
                               "stencil: matrix-free 5-point kernels; banded: A and M stored by diagonals, as the "
                               "thesis")
                   .labelled("Matrix storage")
                   .rebuilds();
    // 1e-5: float CG's residual can stall just above 1e-6 once the waves have died down
    // (measured on an H100: 6 steps in 500 at Courant 5 stalled at 1.1–1.6e-6)
    tolerance_ = params_.add_float("tolerance", 1e-5, 1e-7, 1e-1, "CG stops at ||r|| <= tolerance·||b||")
                     .labelled("CG tolerance")
                     .rebuilds()
                     .log_scaled();
    max_iterations_ = params_.add_int("max_iterations", 200, 1, 4000, "CG iteration cap per step")
                          .labelled("CG limit", "iterations/step")
                          .rebuilds();
    solver_ =
        params_
            .add_choice("solver", {{wave::Solver::Modern, "modern"}, {wave::Solver::Thesis, "thesis"}},
                        wave::Solver::Modern,
                        "modern: the whole step on the GPU; thesis: the thesis's operators, textures and read-backs")
            .labelled("Solver path")
            .rebuilds();
    params_.group("Drops");
    start_ = params_
                 .add_choice("preset",
                             {{Start::Drop, "drop"},
                              {Start::Drops, "drops"},
                              {Start::Line, "line"},
                              {Start::Rain, "rain"},
                              {Start::Calm, "calm"}},
                             Start::Drops,
                             "starting disturbance: one drop, several drops, a line wave, rain (drops keep falling), "
                             "calm")
                 .labelled("Starting waves")
                 .rebuilds();
    drop_radius_ =
        params_.add_float("drop_radius", 5.0, 0.5, 64.0, "radius of a drop in cells").labelled("Drop radius", "cells");
    drop_height_ = params_.add_float("drop_height", 3.0, -10.0, 10.0, "height of a drop, in cells")
                       .labelled("Drop height", "cells");
    rain_rate_ =
        params_.add_float("rain_rate", 0.3, 0.0, 1.0, "rain: drops a frame").labelled("Rain rate", "drops/frame");
    params_.group("Picture");
    view_mode_ = params_
                     .add_choice("view", {{View::Surface, "3d"}, {View::Top, "top"}}, View::Surface,
                                 "3d: shaded surface, orbit camera; top: the thesis's view from above")
                     .labelled("View");
    display_ =
        params_
            .add_choice("display", {{DisplayPath::Direct, "direct"}, {DisplayPath::ReadBack, "readback"}},
                        DisplayPath::Direct,
                        "direct: draw from the GPU's buffers; readback: through the CPU, as Bleton 2005's table 4.2")
            .labelled("Display path");
    height_scale_ = params_.add_float("height_scale", 3.0, 0.0, 50.0, "relief exaggeration in the picture")
                        .labelled("Height scale", "×");
    refraction_ = params_.add_float("refraction", 0.06, 0.0, 0.3, "how far the floor shifts along the surface normal")
                      .labelled("Refraction");
    light_azimuth_ =
        params_.add_float("light_azimuth", 40.0, -180.0, 180.0, "light direction, degrees around the vertical")
            .labelled("Light azimuth", "degrees");
    light_elevation_ =
        params_.add_float("light_elevation", 50.0, 5.0, 90.0, "light direction, degrees above the horizon")
            .labelled("Light elevation", "degrees");
  }

  std::string name() const override { return "wave"; }
  std::string title() const override { return "Waves by implicit steps and CG (Bleton 2005, 4.2)"; }

  wave::Config config() const {
    wave::Config c;
    c.width = c.height = std::max(16u, *size_ / 4 * 4);
    c.c = *c_;
    c.dt = float(*dt_);
    c.dx = *dx_;
    c.solver = *solver_;
    c.scheme = resolve(*scheme_, c.solver);
    c.storage = *storage_;
    c.tolerance = *tolerance_;
    c.max_iterations = *max_iterations_;
    c.damping = *damping_;
    c.sponge = *sponge_;
    return c;
  }

  void build(gpu::Context& ctx) override {
    auto c = config();
    if ((c.storage == wave::Storage::Banded || c.solver == wave::Solver::Thesis) && c.n() > (1u << 22))
      throw ParamError("banded storage holds 3 matrices of 5 diagonals: at most 2048² cells (use stencil above)");
    if (view_ && &ctx != ctx_) view_.reset(), read_back_ = gpu::HostTrip();
    auto sim = std::make_unique<wave::Simulation>(ctx, c);
    bool keep = sim_ && sim_->config().width == c.width && sim_->config().height == c.height && *start_ == started_;
    if (keep) sim->set_state(sim_->height(), sim_->previous());  // a new c, dt, scheme ... keeps the water
    if (!view_) view_ = std::make_unique<render::WaterView>(ctx, find_asset("wave/pool.png"));
    ctx_ = &ctx;
    sim->use_rhs(user_rhs_);
    sim_ = std::move(sim);
    if (!keep)
      restart();
    else
      reset_readouts();
    params_.rebuild_pending = false;
  }

  // The exercise wave/rhs's kernel, once it passed its check, computes b (stencil storage only).
  bool use_kernel(const std::string& op, const exercise::UserKernel* kernel) override {
    if (op != "wave.rhs") return false;
    user_rhs_ = kernel;
    return !sim_ || sim_->use_rhs(kernel) || !kernel;
  }

  void restart() override {
    const auto& c = sim_->config();
    started_ = *start_;
    std::vector<float> h(c.n(), 0.0f);
    float r = *drop_radius_, a = *drop_height_;
    float w = float(c.width), hh = float(c.height);
    if (started_ == Start::Drop) wave::disturb_cpu(c, h, wave::Shape::Drop, 0.5f * w - 0.5f, 0.5f * hh - 0.5f, r, a);
    if (started_ == Start::Drops) {
      const float at[][2] = {{0.3f, 0.35f}, {0.68f, 0.3f}, {0.5f, 0.72f}};
      for (auto& p : at) wave::disturb_cpu(c, h, wave::Shape::Drop, p[0] * w, p[1] * hh, r, a);
    }
    if (started_ == Start::Line) wave::disturb_cpu(c, h, wave::Shape::LineY, 0, 0.2f * hh, r, a);
    sim_->set_state(h, h);
    steps_done_ = 0;
    reset_readouts();
  }

  std::vector<Inspectable> inspectables() const override {
    uint32_t w = sim_->config().width;
    bool top = *view_mode_ == View::Top;
    return {{"height h(t)", {&sim_->height_buffer()}, "float", w, top},
            {"height h(t-1)", {&sim_->previous_buffer()}, "float", w, top}};
  }
  std::vector<StatePart> state_parts() const override { return {{&sim_->height_buffer()}, {&sim_->previous_buffer()}}; }
  void restore_state(const std::vector<std::vector<uint8_t>>& parts, uint64_t step) override {
    sim_->set_state(as_vector<float>(parts[0]), as_vector<float>(parts[1]));
    steps_done_ = step;
    reset_readouts();
  }

  render::Legend legend() const override {
    char t[64];
    std::snprintf(t, sizeof t, "t = %.3f s, step %llu", double(steps_done_) * *dt_, (unsigned long long)steps_done_);
    // the scheme that runs (auto names none)
    std::string scheme = std::string(", scheme ") + wave::scheme_name(sim_->config().scheme) + ", ";
    return {{legend_title(), t, legend_values(size_, c_, dt_) + scheme + legend_values(solver_)}, {}};
  }

  uint32_t steps_per_frame() const override { return *steps_per_frame_; }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    read_back();
    float r = *drop_radius_, a = *drop_height_;
    const auto& c = sim_->config();
    if (started_ == Start::Rain && steps > 0 && uniform_(rng_) < *rain_rate_) {
      float x = uniform_(rng_) * float(c.width), y = uniform_(rng_) * float(c.height);
      sim_->record_disturb(cmd, wave::Shape::Drop, x, y, r, 0.5f * a);
      energy_base_ = -1;
    }
    if (poke_) {
      gpu::Profiler::Scope s(prof, cmd, "wave.drop", 8.0 * c.n(), 0);
      sim_->record_disturb(cmd, wave::Shape::Drop, poke_x_, poke_y_, r, poke_drag_ ? 0.15f * a : a);
      poke_ = false;
      energy_base_ = -1;
    }
    if (blown_up_) return;
    sim_->record_steps(cmd, &prof, steps);
    steps_done_ += steps;
  }

  // Display path readback: the heights go to the CPU and back before the picture draws them (in
  // the window the previous frame's, complete; a headless picture's, its last step's).
  void prepare_draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    if (*display_ == DisplayPath::ReadBack) read_back_.carry(*ctx_, {&sim_->height_buffer()}), ++read_backs_;
    if (*view_mode_ != View::Top) return;
    const auto& c = sim_->config();
    double pixels = double(frame.area.extent.width) * frame.area.extent.height;
    gpu::Profiler::Scope scope(prof, cmd, "wave.shade", 4.0 * (c.n() + pixels), 0);
    view_->shade_top(cmd, frame, shown_heights(), c.width, c.height, water_style());
  }

  const gpu::Buffer& shown_heights() const {
    return *display_ == DisplayPath::ReadBack && read_backs_ > 0 ? read_back_.copy(0) : sim_->height_buffer();
  }

  std::string read_back_text() const {
    return "display through the CPU (Bleton 2005, table 4.2): " + read_back_.last().text();
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    const auto& c = sim_->config();
    if (*view_mode_ == View::Top) {
      gpu::Profiler::Scope scope(prof, cmd, "wave.draw", 8.0 * frame.area.extent.width * frame.area.extent.height, 0);
      return view_->draw_top(cmd, frame);
    }
    gpu::Profiler::Scope scope(prof, cmd, "wave.draw", 4.0 * c.n(), 0);
    view_->draw_surface(cmd, frame, shown_heights(), c.width, c.height, camera_, water_style());
  }

  void pointer(const Pointer& p, const render::Frame& frame) override {
    const auto& c = sim_->config();
    bool top = *view_mode_ == View::Top;
    orbit_.update(camera_, p, !top);
    if (p.left) {
      float x, y;
      bool hit = top ? render::WaterView::cell_under_top(frame, c.width, c.height, p.x, p.y, x, y)
                     : render::WaterView::cell_under_surface(frame, c.width, c.height, camera_, p.x, p.y, x, y);
      if (hit) {
        poke_drag_ = left_held_;  // a click drops; holding drags a gentler trail
        poke_ = true, poke_x_ = x, poke_y_ = y;
      }
    }
    left_held_ = p.left;
  }

  void ui() override {
    read_back();
    const auto& c = sim_->config();
    ImGui::TextWrapped("courant c·dt/dx = %.3g   r = %.4g   alpha = r/2 = %.4g", std::sqrt(c.r()), c.r(), c.r() / 2);
    ImGui::TextWrapped("steps %llu", (unsigned long long)steps_done_);
    if (*display_ == DisplayPath::ReadBack && read_backs_ > 0) ImGui::TextWrapped("%s", read_back_text().c_str());
    if (last_.iterations || last_.converged)
      ImGui::TextWrapped("last step: CG %u iterations, ||r||/||b|| = %.2e%s", last_.iterations, last_.residual,
                         last_.converged ? "" : "  NOT CONVERGED");
    if (c.solver == wave::Solver::Thesis)
      ImGui::TextWrapped("thesis path: last step %.2f ms wall time, %u residual read-backs", sim_->thesis_step_ms(),
                         sim_->thesis_readbacks());
    else
      ImGui::TextWrapped("iterations recorded per step: %u (budget from recent steps, cap %u)", sim_->budget(),
                         c.max_iterations);
    if (short_steps_)
      warning_text({1, 0.7f, 0.2f, 1},
                   "%llu steps stopped before the tolerance (float's floor is near 1e-6: "
                   "raise tolerance or max_iterations)",
                   (unsigned long long)short_steps_);
    if (!energy_.empty()) {
      ImGui::TextWrapped("energy E = %.5g", energy_.back());
      if (energy_base_ > 0)
        ImGui::TextWrapped("change since the last disturbance: %+.2e (relative)",
                           (energy_.back() - energy_base_) / energy_base_);
      for (auto& p : plots()) plot(p);
      ImGui::TextDisabled("%s", energy_note(c).c_str());
    }
    if (blown_up_) warning_text({1, 0.3f, 0.3f, 1}, "%s Paused; Restart or change parameters.", problem_.c_str());
    ImGui::TextDisabled(*view_mode_ == View::Top ? "left click: drop; hold: trail"
                                                 : "left click: drop; right drag: orbit; wheel: zoom");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    const auto& c = sim_->config();
    write_npy(dir / "height.npy", sim_->height(), {c.height, c.width});
    write_npy(dir / "previous.npy", sim_->previous(), {c.height, c.width});
    read_back();
    return {{"arrays",
             {{"height.npy", "float32 [rows, cols]: h(t), row 0 at the top of the top view"},
              {"previous.npy", "float32 [rows, cols]: h(t-1)"}}},
            {"steps", steps_done_},
            {"r", c.r()},
            {"scheme", wave::scheme_name(c.scheme)},
            {"energy", energy_.empty() ? energy_now() : double(energy_.back())},
            {"energy_cpu", wave::energy_cpu(c, sim_->height(), sim_->previous())},
            {"last_cg_iterations", last_.iterations},
            {"last_cg_residual", last_.residual},
            {"steps_short_of_tolerance", short_steps_}};
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    render::WaterView view(ctx, find_asset("wave/pool.png"));
    render::OffscreenTarget target(ctx, 1024, 768);  // the display column: top view, refraction and light
    // The modern rows run the modern path's scheme, the thesis row the thesis path's (auto: seed).
    auto modern = config();
    modern.solver = wave::Solver::Modern;
    modern.scheme = resolve(*scheme_, wave::Solver::Modern);
    auto thesis_scheme = resolve(*scheme_, wave::Solver::Thesis);
    return wave::bench(ctx, options, modern, thesis_scheme,
                       [&](VkCommandBuffer cmd, const wave::Config& c, const gpu::Buffer& heights) {
                         const float clear[4] = {0, 0, 0, 1};
                         view.shade_top(cmd, target.frame(), heights, c.width, c.height, render::WaterStyle{});
                         render::begin_rendering(cmd, target.frame(), clear);
                         view.draw_top(cmd, target.frame());
                         render::end_rendering(cmd);
                       });
  }

  std::vector<PlotData> plots() const override {
    if (energy_.empty()) return {};
    PlotData d{{"wave-energy", "step", "energy E (per step)", false, 100}, {}, {energy_.begin(), energy_.end()}};
    if (steps_done_ >= energy_.size())
      for (size_t i = 0; i < energy_.size(); ++i) d.x.push_back(double(steps_done_ - energy_.size() + 1 + i));
    return {d};
  }

  std::string headless_report() override {
    if (*display_ != DisplayPath::ReadBack || read_backs_ == 0) return "";
    return "wave: " + read_back_text() + "\n";
  }

  std::string problem() override {
    read_back();
    return problem_;
  }

 private:
  render::WaterStyle water_style() const {
    float az = *light_azimuth_ * 0.0174533f, el = *light_elevation_ * 0.0174533f;
    return {*height_scale_, *refraction_, {std::cos(el) * std::sin(az), std::sin(el), std::cos(el) * std::cos(az)}};
  }

  // What the energy plot should show, scheme by scheme (compute/wave/wave.h derives it).
  static std::string energy_note(const wave::Config& c) {
    bool damped = c.damping > 0 || c.sponge > 0;
    switch (c.scheme) {
      case wave::Scheme::Seed:
        return "seed scheme: each mode loses energy by 1/(1+alpha·lambda) a step";
      case wave::Scheme::PrintedA:
        return "printed A = (8a+1)I - aS: every mode, the flat one too, shrinks by 1/sqrt(1+4a+a·lambda) a step: "
               "E falls to nothing in a few steps";
      case wave::Scheme::PrintedB:
        return "printed b with (1-4a)h: the flat mode turns by 60 degrees a step: E swings with a period of about "
               "6 steps while it decays";
      case wave::Scheme::PrintedM:
        return "printed M = 2I + aS: the flat mode grows by 1+2a+sqrt((1+2a)^2-1) a step: E climbs until the "
               "simulation blows up";
      default:
        return damped ? "newmark with damping: energy leaves on purpose"
                      : "newmark: E stays put (float and CG tolerance only)";
    }
  }

  double energy_now() const { return wave::energy_cpu(sim_->config(), sim_->height(), sim_->previous()); }

  void reset_readouts() {
    energy_.clear();
    last_ = {};
    read_ = sim_->steps();
    energy_base_ = -1;
    short_steps_ = 0;
    blown_up_ = false;
    problem_.clear();
  }

  // The finished steps' CG outcome and energy (their submission has completed: the window
  // keeps one frame in flight and waits for it before recording, headless waits each).
  void read_back() {
    if (sim_->steps() == read_) return;
    short_steps_ += sim_->observe();
    for (uint64_t k = std::max(read_ + 1, sim_->steps() + 1 - std::min<uint64_t>(sim_->steps(), 600));
         k <= sim_->steps(); ++k) {
      last_ = sim_->stats(k);
      energy_.push_back(last_.energy);
      if (energy_.size() > 600) energy_.pop_front();
      if (energy_base_ < 0) energy_base_ = last_.energy;
      if (!std::isfinite(last_.energy) && !blown_up_) {
        blown_up_ = true;
        // k counts the simulation's steps since it was last made (a new scheme keeps the water);
        // the message counts as the bar does
        uint64_t step = steps_done_ - std::min<uint64_t>(steps_done_, sim_->steps() - k);
        problem_ = "the wave simulation blew up at step " + std::to_string(step) + " (non-finite energy)";
      }
    }
    read_ = sim_->steps();
  }

  Knob<uint32_t> size_, sponge_, steps_per_frame_, max_iterations_;
  Knob<double> dt_, rain_rate_;  // read in double: the legend's time, rain's odds against a float draw
  Knob<float> c_, dx_, damping_, tolerance_, drop_radius_, drop_height_;
  Knob<float> height_scale_, refraction_, light_azimuth_, light_elevation_;
  Choice<SchemeKnob> scheme_;
  Choice<wave::Storage> storage_;
  Choice<wave::Solver> solver_;
  Choice<Start> start_;
  Choice<View> view_mode_;
  Choice<DisplayPath> display_;
  gpu::HostTrip read_back_;  // display path readback: the copy the picture draws
  uint64_t read_backs_ = 0;

  gpu::Context* ctx_ = nullptr;
  std::unique_ptr<wave::Simulation> sim_;
  const exercise::UserKernel* user_rhs_ = nullptr;  // use_kernel(): the user's right-hand side, not owned
  std::unique_ptr<render::WaterView> view_;
  render::OrbitCamera camera_;
  Start started_ = Start::Drops;  // the disturbance the water started from (restart())
  std::deque<float> energy_;
  double energy_base_ = -1;
  wave::StepStats last_;
  uint64_t read_ = 0, short_steps_ = 0;
  bool blown_up_ = false;
  std::string problem_;
  OrbitControl orbit_;
  bool poke_ = false, poke_drag_ = false, left_held_ = false;
  float poke_x_ = 0, poke_y_ = 0;
  std::mt19937 rng_{12345};
  std::uniform_real_distribution<float> uniform_{0.0f, 1.0f};
};

}  // namespace

LabEntry wave_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<WaveLab>()); }, {}};
}
