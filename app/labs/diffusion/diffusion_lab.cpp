// The heat diffusion lab's knobs, panel and dump. Math: compute/diffusion/ (its benchmark:
// compute/diffusion/bench.cpp); picture: render/heatmap_view.
#include "app/core/assets.h"
#include "app/core/lab.h"
#include "app/widgets/warning_text.h"
#include "compute/diffusion/bench.h"
#include "compute/diffusion/diffusion.h"
#include "compute/io/npy.h"
#include "compute/io/pgm.h"
#include "compute/measure/timer.h"
#include "render/heatmap_view.h"

#include <imgui.h>

#include <chrono>
#include <cmath>

namespace {

// The starting field read from assets/diffusion/letters.pgm, beside compute's generated ones.
const std::string kLetters = "letters";

class DiffusionLab : public Lab {
 public:
  DiffusionLab() {
    params_.group("Simulation");
    size_ = params_.add_int("size", int(diffusion::Config{}.width), 16, 8192, "grid side in cells")
                .labelled("Grid size", "cells")
                .rebuilds();
    cd_ =
        params_.add_float("cd", 0.8, 0.0, 2.0, "diffusion coefficient Cd in T' = T + (Cd/4) lap T; stable for Cd <= 1")
            .labelled("Diffusion coefficient");
    boundary_ =
        params_
            .add_choice(
                "boundary", {{diffusion::Boundary::Insulated, "insulated"}, {diffusion::Boundary::FixedZero, "zero"}},
                diffusion::Boundary::Insulated, "insulated: no heat crosses the border; zero: the border is held at 0")
            .labelled("Boundary");
    steps_per_frame_ = params_.add_int("steps_per_frame", 20, 0, 5000, "diffusion steps per frame (0 pauses)")
                           .labelled("Steps a frame");
    params_.group("Start");
    auto initial = diffusion::presets();
    initial.push_back(kLetters);
    starting_field_ =
        params_.add_choice("initial", initial, "spots", "starting field; letters: assets/diffusion/letters.pgm")
            .labelled("Starting field")
            .rebuilds();
    seed_ =
        params_.add_int("seed", 1, 0, 1000000, "random seed of the starting field").labelled("Random seed").rebuilds();
    params_.group("Picture");
    colormap_ = params_.add_choice("colormap", render::colormap_names(), "heat", "colour map").labelled("Colour map");
    range_lo_ = params_.add_float("range_lo", 0.0, -100.0, 100.0, "value drawn with the colour map's first colour")
                    .labelled("Colour range low");
    range_hi_ = params_.add_float("range_hi", 1.0, -100.0, 100.0, "value drawn with the colour map's last colour")
                    .labelled("Colour range high");
    smooth_ = params_.add_bool("smooth", false, "interpolate between cell centres").labelled("Smooth");
    auto_range_ =
        params_
            .add_bool("auto_range", true,
                      "colour range follows the field's last-frame minimum and maximum; off locks it where it is")
            .labelled("Colour range follows the data");
    params_.group("Brush");
    brush_radius_ = params_.add_float("brush_radius", 6.0, 0.5, 200.0, "paint brush radius in cells")
                        .labelled("Brush radius", "cells");
    brush_heat_ =
        params_.add_float("brush_heat", 0.5, 0.0, 10.0, "heat the brush adds (left) or removes (right) per frame")
            .labelled("Brush heat", "per frame");
  }

  std::string name() const override { return "diffusion"; }
  std::string title() const override {
    return "Heat diffusion (Bleton 2005, GPU computing for finite differences, 4.4)";
  }

  diffusion::Config config() const {
    diffusion::Config c;
    c.width = c.height = *size_;
    c.cd = float(*cd_);
    c.boundary = *boundary_;
    return c;
  }

  void build(gpu::Context& ctx) override {
    if (view_ && &ctx != ctx_) view_.reset();
    ctx_ = &ctx;
    auto sim = std::make_unique<diffusion::Simulation>(ctx, config());
    sim->upload(initial_field(sim->config));
    if (!view_) view_ = std::make_unique<render::HeatmapView>(ctx);
    sim->use_step(user_step_);
    sim_ = std::move(sim);
    start();
    params_.rebuild_pending = false;
  }

  // The exercise diffusion/laplacian's kernel, once it passed its check, steps the field.
  bool use_kernel(const std::string& op, const exercise::UserKernel* kernel) override {
    if (op != "diffusion.step") return false;
    user_step_ = kernel;
    if (sim_) sim_->use_step(kernel);
    return true;
  }

  void restart() override {
    sim_->upload(initial_field(sim_->config));
    start();
  }

  std::vector<Inspectable> inspectables() const override {
    return {{"temperature", {&sim_->field(), nullptr}, "float", sim_->config.width, true}};
  }
  std::vector<StatePart> state_parts() const override { return {{&sim_->field(), nullptr}}; }
  void restore_state(const std::vector<std::vector<uint8_t>>& parts, uint64_t step) override {
    sim_->upload(as_vector<float>(parts[0]));
    steps_done_ = step;
    stats_pending_ = blown_up_ = false;
    stats_ = sim_->stats();
  }

  render::Legend legend() const override {
    return {{legend_title(), "step " + std::to_string(steps_done_), legend_values(size_, cd_, boundary_)},
            render::LegendBar{*colormap_, range().first, range().second,
                              *auto_range_ ? "temperature (no unit), range: min to max" : "temperature (no unit)"}};
  }

  uint32_t steps_per_frame() const override { return *steps_per_frame_; }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    if (stats_pending_) read_stats();
    if (followed_ && !*auto_range_ && stats_.max > stats_.min) {  // locked: the range stays where it was shown
      params_.set_value("range_lo", stats_.min);
      params_.set_value("range_hi", stats_.max);
    }
    followed_ = *auto_range_;
    auto c = config();
    sim_->config.cd = c.cd;
    sim_->config.boundary = c.boundary;
    if (paint_ != 0.0f) {
      float heat = paint_ * *brush_heat_;
      sim_->record_paint(cmd, &prof, paint_x_, paint_y_, *brush_radius_, heat);
      paint_ = 0.0f;
      rebase_ = true;  // the brush changes the total on purpose: measure drift from after it
    }
    if (!blown_up_) {
      sim_->record_steps(cmd, &prof, steps);
      steps_done_ += steps;
    }
    sim_->record_stats(cmd, &prof);
    stats_pending_ = true;
  }

  // The colour range: the parameters', or the field's last minimum and maximum.
  std::pair<float, float> range() const {
    if (*auto_range_ && stats_.max > stats_.min) return {stats_.min, stats_.max};
    return {*range_lo_, *range_hi_};
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope scope(prof, cmd, "diffusion.draw", 4.0 * frame.extent.width * frame.extent.height, 0);
    render::HeatmapStyle style{*colormap_, range().first, range().second, *smooth_};
    view_->draw(cmd, frame, sim_->field(), sim_->config.width, sim_->config.height, style);
  }

  void pointer(const Pointer& p, const render::Frame& frame) override {
    if (!p.left && !p.right) return;
    auto r = render::fit_rect(frame.area, sim_->config.width, sim_->config.height);
    paint_x_ = (p.x - r.x) / r.w * float(sim_->config.width);
    paint_y_ = (p.y - r.y) / r.h * float(sim_->config.height);
    paint_ = p.left ? 1.0f : -1.0f;
  }

  void ui() override {
    if (stats_pending_) read_stats();
    ImGui::TextWrapped("steps done: %llu", (unsigned long long)steps_done_);
    ImGui::TextWrapped("total heat %.6g", stats_.sum);
    if (initial_.sum != 0)
      ImGui::TextWrapped("relative change since start or last paint: %.2e", (stats_.sum - initial_.sum) / initial_.sum);
    if (*boundary_ == diffusion::Boundary::Insulated)
      ImGui::TextDisabled("insulated: the total should stay put (float rounding only)");
    else
      ImGui::TextDisabled("zero border: heat leaves through the edges");
    ImGui::TextWrapped("min %.4g  max %.4g", stats_.min, stats_.max);
    if (*cd_ > 1.0) warning_text({1, 0.7f, 0.2f, 1}, "Cd > 1: the explicit scheme is unstable and will blow up");
    if (blown_up_) warning_text({1, 0.3f, 0.3f, 1}, "%s Paused; lower Cd and Restart.", problem_.c_str());
    ImGui::TextDisabled("left drag: add heat, right drag: remove heat");
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    auto field = sim_->download();
    write_npy(dir / "temperature.npy", field, {sim_->config.height, sim_->config.width});
    auto s = sim_->stats();
    return {{"arrays", {{"temperature.npy", "float32 [height, width], row 0 at the top of the picture"}}},
            {"steps", steps_done_},
            {"total_heat", s.sum},
            {"initial_total_heat", initial_.sum},
            {"min", s.min},
            {"max", s.max},
            {"non_finite_cells", s.non_finite}};
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return diffusion::bench(ctx, options);
  }

  std::string problem() override {
    if (stats_pending_) read_stats();
    return blown_up_ ? problem_ : "";
  }

 private:
  std::vector<float> initial_field(const diffusion::Config& c) const {
    if (*starting_field_ != kLetters) return diffusion::initial_field(c, *starting_field_, *seed_);
    // The asset's graymap, scaled (nearest cell) to 90% of the grid's width, centred.
    auto img = read_pgm(find_asset("diffusion/letters.pgm"));
    std::vector<float> f(size_t(c.width) * c.height, 0.0f);
    float scale = 0.9f * float(c.width) / float(img.width);
    float x0 = 0.5f * (float(c.width) - scale * float(img.width));
    float y0 = 0.5f * (float(c.height) - scale * float(img.height));
    for (uint32_t y = 0; y < c.height; ++y)
      for (uint32_t x = 0; x < c.width; ++x) {
        float u = (float(x) + 0.5f - x0) / scale, v = (float(y) + 0.5f - y0) / scale;
        if (u >= 0 && v >= 0 && u < float(img.width) && v < float(img.height))
          f[size_t(y) * c.width + x] = img.values[size_t(v) * img.width + size_t(u)];
      }
    return f;
  }

  void start() {
    steps_done_ = 0;
    stats_pending_ = false;
    blown_up_ = false;
    initial_ = stats_ = sim_->stats();
  }

  void read_stats() {
    stats_ = sim_->last_stats();
    stats_pending_ = false;
    if (rebase_) initial_ = stats_;
    rebase_ = false;
    // Stable diffusion (Cd <= 1) obeys the maximum principle: no cell leaves the starting
    // range. 100 times past it, the scheme is growing without bound; NaN/inf are past saving.
    double bound = 100.0 * std::max({1.0, std::fabs(double(initial_.min)), std::fabs(double(initial_.max))});
    bool growing = std::max(std::fabs(double(stats_.min)), std::fabs(double(stats_.max))) > bound;
    if ((stats_.non_finite > 0 || growing) && !blown_up_) {
      blown_up_ = true;
      char line[256];
      if (stats_.non_finite > 0)
        std::snprintf(line, sizeof line,
                      "diffusion blew up after %llu steps (%u cells NaN/inf); Cd = %.3g > 1 is unstable.",
                      (unsigned long long)steps_done_, stats_.non_finite, *cd_);
      else
        std::snprintf(line, sizeof line,
                      "diffusion is growing without bound after %llu steps (|T| up to %.3g, 100 times its starting "
                      "range); Cd = %.3g > 1 is unstable.",
                      (unsigned long long)steps_done_, std::max(std::fabs(stats_.min), std::fabs(stats_.max)), *cd_);
      problem_ = line;
    }
  }

  Knob<uint32_t> size_, steps_per_frame_, seed_;
  Knob<double> cd_;
  Knob<float> range_lo_, range_hi_, brush_radius_, brush_heat_;
  Choice<diffusion::Boundary> boundary_;
  Knob<std::string> starting_field_, colormap_;
  Knob<bool> smooth_, auto_range_;
  bool followed_ = true;  // auto_range was on at the last step (turning it off locks the range)

  gpu::Context* ctx_ = nullptr;
  std::unique_ptr<diffusion::Simulation> sim_;
  const exercise::UserKernel* user_step_ = nullptr;  // use_kernel(): the user's step kernel, not owned
  std::unique_ptr<render::HeatmapView> view_;
  diffusion::Stats stats_, initial_;
  bool stats_pending_ = false, blown_up_ = false, rebase_ = false;
  std::string problem_;
  float paint_ = 0.0f, paint_x_ = 0.0f, paint_y_ = 0.0f;
};

}  // namespace

LabEntry diffusion_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<DiffusionLab>()); }, {}};
}
