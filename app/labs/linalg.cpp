// The linear algebra lab's knobs, panel and dump (seed 000, ch. 3 and §4.3). Math:
// compute/linalg/ (its benchmark and the panel's Run: compute/linalg/bench.cpp); picture: render/heatmap_view (a vector
// drawn as the image it is).
#include "gpu/bandwidth.h"
#include "heatmap_view.h"
#include "lab.h"
#include "plot.h"
#include "linalg/bench.h"
#include "linalg/workload.h"
#include "io/npy.h"

#include <imgui.h>

#include <array>
#include <chrono>
#include <cmath>
#include <map>

using namespace linalg;

namespace {

class LinalgLab : public Lab {
 public:
  LinalgLab() {
    params_.group("Operator");
    params_.add_choice("operator", op_names(), "banded", "the operator to run every frame")
        .labelled("Operator")
        .rebuild = true;
    params_.add_int("side", 128, 1, 4096, "vectors of side x side x 4 values (the thesis's sizes); CG: a 2·side grid")
        .labelled("Vector side")
        .rebuild = true;
    params_
        .add_choice("layout", {"texture", "buffer"}, "texture",
                    "texture: RGBA32F square texture, 4 values a texel (the thesis); buffer: a storage buffer")
        .labelled("Data layout")
        .rebuild = true;
    params_
        .add_choice("variant", {"thesis", "modern"}, "thesis",
                    "thesis: the 2005 multi-pass operators; modern: one-pass, fused")
        .labelled("Variant")
        .rebuild = true;
    params_.add_int("diagonals", 12, 1, 64, "banded: diagonals of the random band matrix")
        .labelled("Band diagonals")
        .rebuild = true;
    params_
        .add_choice("dot_precision", {"float", "float-float"}, "float",
                    "dot: accumulate in float, or in float-float (Da Graça 2006's Add22/Mul12, one pass)")
        .labelled("Dot precision")
        .rebuild = true;
    params_.add_int("dense_n", 512, 4, 8192, "dense: the matrix is dense_n x dense_n")
        .labelled("Dense matrix size", "rows")
        .rebuild = true;
    params_.group("CG solver");
    params_.add_float("cg_c", 10.0, 0.01, 1000.0, "CG: solves (I - c·L) x = b, L the 5-point Laplacian")
        .labelled("CG coefficient c")
        .rebuild = true;
    params_.back().log_scale = true;
    params_.add_float("cg_tolerance", 1e-5, 1e-7, 1e-1, "CG: stop when ||r|| / ||b|| is below this")
        .labelled("CG tolerance");
    params_.back().log_scale = true;
    params_.add_int("cg_check_every", 10, 1, 200, "CG: iterations a frame; the residual is read between frames")
        .labelled("CG iterations a frame");
    params_.add_int("cg_max_iterations", 2000, 1, 4000, "CG: stop here if the tolerance is not reached")
        .labelled("CG limit", "iterations");
    params_.group("Timing");
    params_.add_int("runs", 20, 1, 1000, "Run: how many timed applications").labelled("Timed runs");
    params_.group("Picture");
    params_.add_choice("colormap", render::colormap_names(), "coolwarm", "colour map of the picture")
        .labelled("Colour map");
    params_.group("Operator");
    params_.add_int("seed", 1, 0, 1000000, "random data seed").labelled("Random seed").rebuild = true;
  }

  std::string name() const override { return "linalg"; }
  std::string title() const override { return "Linear algebra on the GPU (Bleton 2005, ch. 3)"; }
  std::vector<Inspectable> inspectables() const override {
    return {{"the result, as drawn", {nullptr, display_.get()}, "float", display_->width(), true}};
  }
  render::Legend legend() const override {
    return {{legend_title(), "run " + std::to_string(steps_done_), legend_values({"operator", "side", "layout"})},
            render::LegendBar{params_.choice("colormap"), lo_, hi_, "the result's values"}};
  }

  WorkloadConfig config() const {
    WorkloadConfig c;
    c.op = op_from_name(params_.choice("operator"));
    c.variant = params_.choice("variant") == "thesis" ? Variant::Thesis : Variant::Modern;
    c.layout = params_.choice("layout") == "texture" ? Layout::Texture : Layout::Buffer;
    c.side = uint32_t(params_.get_int("side"));
    c.diagonals = uint32_t(params_.get_int("diagonals"));
    c.dense_n = uint32_t(params_.get_int("dense_n"));
    c.cg_c = float(params_.get("cg_c"));
    c.float_float = params_.choice("dot_precision") == "float-float";
    c.seed = uint32_t(params_.get_int("seed"));
    return c;
  }

  void build(gpu::Context& ctx) override {
    if (view_ && &ctx != ctx_) view_.reset();
    auto w = std::make_unique<Workload>(ctx, config());
    uint32_t width = w->grid_width(), height = (w->n() + width - 1) / width;
    auto display = std::make_unique<gpu::Image>(ctx, width, height, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
    if (!view_) view_ = std::make_unique<render::HeatmapView>(ctx);
    ctx_ = &ctx;
    work_ = std::move(w);
    display_ = std::move(display);
    comparison_ = {};
    problem_.clear();
    params_.rebuild_pending = false;
    start();
  }

  std::string problem() override {
    read_cg();
    return problem_;
  }

  void restart() override {
    problem_.clear();
    ctx_->submit_now([&](VkCommandBuffer cmd) { work_->record_restart(cmd); });
    start();
  }

  uint32_t steps_per_frame() const override { return 1; }

  void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) override {
    bool is_cg = work_->config().op == Op::Cg;
    if (is_cg) read_cg();
    uint32_t applications = steps;  // CG: cg_check_every iterations a step, up to the cap
    if (is_cg) {
      uint32_t cap = uint32_t(params_.get_int("cg_max_iterations")), done = work_->cg_iterations();
      applications = done >= cap ? 0 : std::min(steps * uint32_t(params_.get_int("cg_check_every")), cap - done);
    }
    if (!converged_ && applications > 0) {
      gpu::Profiler::Scope s(prof, cmd, work_->name(), applications * work_->bytes(), applications * work_->flops());
      for (uint32_t i = 0; i < applications; ++i) work_->record(cmd);
      steps_done_ += steps;
      cg_pending_ = is_cg;
    }
    gpu::Profiler::Scope s(prof, cmd, "linalg.unpack", work_->result().bytes() + 4.0 * work_->n(), 0);
    work_->ops().unpack(cmd, work_->result(), *display_);
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope s(prof, cmd, "linalg.draw", 4.0 * frame.extent.width * frame.extent.height, 0);
    view_->draw(cmd, frame, *display_, {params_.choice("colormap"), lo_, hi_, false});
  }

  // Long: the panel, a list of ImGui widgets in the order they appear.
  void ui() override {
    auto& c = work_->config();
    ImGui::TextWrapped("%s, %s, %u values, %s layout", work_->name().c_str(), work_->size().c_str(), work_->n(),
                       layout_name(c.layout));
    ImGui::TextDisabled("declared per application: %.3g MB, %.3g MFLOP", work_->bytes() / 1e6, work_->flops() / 1e6);
    if ((c.op == Op::Dot || c.op == Op::Norm) && steps_done_ > 0) {
      // The same inputs every frame: read the GPU's scalar once, not with every frame.
      if (!scalar_read_) {
        scalar_ = {work_->ops().scalars().get(8), work_->ops().scalars().get(9)};
        scalar_read_ = true;
      }
      if (c.op == Op::Dot && c.float_float)
        ImGui::TextWrapped("result on the GPU: %.7g + %.7g", double(scalar_[0]), double(scalar_[1]));
      else
        ImGui::TextWrapped("result on the GPU: %.7g", double(scalar_[0]));
    }
    if (c.op == Op::Cg) {
      read_cg();
      bool capped = work_->cg_iterations() >= uint32_t(params_.get_int("cg_max_iterations"));
      ImGui::TextWrapped("iteration %u, ||r||/||b|| = %.3e%s", work_->cg_iterations(),
                         history_.empty() ? 1.0 : double(history_.back()),
                         converged_ ? "  (converged)"
                         : capped   ? "  (iteration cap reached)"
                                    : "");
      plot({"cg-residual", "CG iteration", "||r|| / ||b|| (log scale)", true, 110}, {},
           std::vector<double>(history_.begin(), history_.end()));
    }
    if (c.op == Op::Cg) {
      if (ImGui::Button("Compare float32 / float-float / double")) {
        vkDeviceWaitIdle(ctx_->device);
        comparison_ = work_->compare_precisions(1e-12f, uint32_t(params_.get_int("cg_max_iterations")));
        start();
      }
      for (auto& e : comparison_.entries)
        ImGui::TextWrapped("%-17s %4u it., true residual %.1e", e.precision.c_str(), e.iterations, e.true_residual);
    }
    if (ImGui::Button("Run")) {
      vkDeviceWaitIdle(ctx_->device);
      last_run_ = measure(*ctx_, *work_, params_.get_int("runs"), 0, 50);
      fit_range();
    }
    ImGui::SameLine();
    if (ImGui::Button("Fit colour range")) {
      vkDeviceWaitIdle(ctx_->device);
      fit_range();
    }
    if (last_run_.repeats > 0) {
      auto& r = last_run_;
      ImGui::TextWrapped("GPU %.4f ms (median of %d), %.1f GB/s, %.1f GFLOP/s", r.median_ms, r.repeats, r.gbps(),
                         r.gflops());
      ImGui::TextWrapped("CPU %.3f ms (one thread), gain %.1fx", r.reference["cpu_single_thread_ms"].get<double>(),
                         r.reference["gain_over_cpu"].get<double>());
      for (auto& [k, v] : r.reference.items())
        if (k == "max_relative_error_vs_cpu" || k == "true_relative_residual")
          ImGui::TextWrapped("%s: %.2e", k.c_str(), v.get<double>());
      if (r.reference.contains("thesis")) {
        auto& t = r.reference["thesis"];
        ImGui::TextDisabled("thesis, GeForce 6600: GPU %.2f ms, CPU %.2f ms, gain %.2f", t["gpu_ms"].get<double>(),
                            t["cpu_ms"].get<double>(), t["gain"].get<double>());
      }
    }
    ImGui::TextDisabled("picture: the %s, %u values a row", c.op == Op::Cg ? "solution x on its grid" : "result vector",
                        display_->width());
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    auto values = work_->result().download();
    uint32_t w = display_->width();
    values.resize(size_t(w) * display_->height(), 0.0f);
    write_npy(dir / "result.npy", values, {display_->height(), w});
    nlohmann::json j = {
        {"arrays", {{"result.npy", "float32 [rows, width]: the result vector, row-major, zero padded"}}},
        {"operator", work_->name()},
        {"n", work_->n()},
        {"applications", steps_done_}};
    if (work_->config().op == Op::Cg) {
      read_cg();
      write_npy(dir / "cg_residual.npy", history_, {history_.size()});
      j["arrays"]["cg_residual.npy"] = "float32 [iterations + 1]: ||r_i|| / ||b||";
      j["cg_iterations"] = work_->cg_iterations();
      j["cg_converged"] = converged_;
      j["true_relative_residual"] = work_->check();
    }
    if (work_->config().op == Op::Dot || work_->config().op == Op::Norm) j["scalar"] = work_->ops().scalars().get(8);
    if (work_->config().op == Op::Dot && work_->config().float_float)
      j["scalar_lo"] = work_->ops().scalars().get(9);  // the float-float result is scalar + scalar_lo
    return j;
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return linalg::bench(ctx, options);
  }

 private:
  void start() {
    steps_done_ = 0;
    scalar_read_ = false;
    converged_ = false;
    cg_pending_ = false;
    history_.clear();
    last_run_ = {};
    fit_range();
  }

  // CG: the residual history of what has run so far (the frame's fence has been waited).
  void read_cg() {
    if (!cg_pending_) return;
    cg_pending_ = false;
    auto h = work_->ops().scalars().history(work_->cg_iterations() + 1);
    float rho0 = h.empty() ? 0 : h[0];
    history_.clear();
    for (float v : h) history_.push_back(rho0 > 0 ? std::sqrt(std::max(v, 0.0f) / rho0) : 0.0f);
    for (size_t i = 0; i < h.size() && problem_.empty(); ++i)
      if (!std::isfinite(h[i])) {  // the watchdog: CG broke down; stop iterating
        problem_ = "CG broke down: ||r||^2 is " + std::to_string(h[i]) + " at iteration " + std::to_string(i);
        converged_ = true;
      }
    if (!history_.empty() && history_.back() <= float(params_.get("cg_tolerance"))) {
      converged_ = true;
      fit_range();
    }
  }

  void fit_range() {  // a read-back for the picture's colour range, only on request or convergence
    auto v = work_->result().download();
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    float m = std::max(std::fabs(*lo), std::fabs(*hi));
    bool signed_values = *lo < 0;
    lo_ = signed_values ? -m : 0.0f;
    hi_ = m > 0 ? m : 1.0f;
  }

  gpu::Context* ctx_ = nullptr;
  std::unique_ptr<Workload> work_;
  std::unique_ptr<gpu::Image> display_;
  std::unique_ptr<render::HeatmapView> view_;
  std::vector<float> history_;
  bool converged_ = false, cg_pending_ = false;
  float lo_ = -1, hi_ = 1;
  BenchRow last_run_;
  PrecisionComparison comparison_;
  std::array<float, 2> scalar_{};  // dot / norm result as last read back
  bool scalar_read_ = false;
  std::string problem_;
};

}  // namespace

LabEntry linalg_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<LinalgLab>()); }, {}};
}
