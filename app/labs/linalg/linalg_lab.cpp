// The linear algebra lab's knobs, panel and dump (seed 000, ch. 3 and §4.3). Math:
// compute/linalg/ (its benchmark and the panel's Run: compute/linalg/bench.cpp); pictures: linalg_pictures.* (the
// vectors as fields on their grid, drawn by render/heatmap_view straight from the GPU).
#include "app/core/lab.h"
#include "app/labs/linalg/element_panel.h"
#include "app/labs/linalg/index.h"
#include "app/labs/linalg/pictures.h"
#include "app/widgets/plot.h"
#include "app/widgets/warning_text.h"
#include "compute/exercise/user_kernel.h"
#include "compute/io/npy.h"
#include "compute/linalg/bench.h"
#include "compute/linalg/workload.h"
#include "compute/measure/timer.h"
#include "render/heatmap_view.h"

#include <imgui.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

using namespace linalg;

namespace {

// The lab's own choices; the operator, layout and variant are compute/linalg's enums.
enum class DotPrecision { Float, FloatFloat };
enum class Operands { Fields, Random, Negative, Positive };
enum class Padding { Identity, Zero };  // max, min: what the padding counts as
enum class Index { Integer, Frac };     // how the texture layout finds V's quads
enum class Picture { Fields, Residual, Layout };

class LinalgLab : public Lab {
 public:
  LinalgLab() {
    params_.group("Operator");
    op_ = params_
              .add_choice("operator", named_choices(op_names(), op_from_name), Op::Banded,
                          "the operator to run every frame")
              .labelled("Operator")
              .rebuilds();
    side_ =
        params_
            .add_int("side", 128, 1, 4096, "vectors of side x side x 4 values (the thesis's sizes); CG: a 2·side grid")
            .labelled("Vector side")
            .rebuilds();
    layout_choice_ =
        params_
            .add_choice("layout", {{Layout::Texture, "texture"}, {Layout::Buffer, "buffer"}}, Layout::Texture,
                        "texture: RGBA32F square texture, 4 values a texel (the thesis); buffer: a storage "
                        "buffer")
            .labelled("Data layout")
            .rebuilds();
    variant_ = params_
                   .add_choice("variant", {{Variant::Thesis, "thesis"}, {Variant::Modern, "modern"}}, Variant::Thesis,
                               "thesis: the 2005 multi-pass operators; modern: one-pass, fused")
                   .labelled("Variant")
                   .rebuilds();
    diagonals_ = params_.add_int("diagonals", 12, 1, 64, "banded: diagonals of the random band matrix")
                     .labelled("Band diagonals")
                     .rebuilds();
    dot_precision_ =
        params_
            .add_choice("dot_precision", {{DotPrecision::Float, "float"}, {DotPrecision::FloatFloat, "float-float"}},
                        DotPrecision::Float,
                        "dot: accumulate in float, or in float-float (Da Graça 2006's Add22/Mul12, one "
                        "pass)")
            .labelled("Dot precision")
            .rebuilds();
    data_ = params_
                .add_choice(
                    "data",
                    {{Operands::Fields, "fields"},
                     {Operands::Random, "random"},
                     {Operands::Negative, "negative"},
                     {Operands::Positive, "positive"}},
                    Operands::Fields,
                    "fields: spots, a Gaussian, a box filter; random: both signs; negative, positive: random, one sign")
                .labelled("Operands")
                .rebuilds();
    dense_n_ = params_.add_int("dense_n", 512, 4, 8192, "dense: the matrix is dense_n x dense_n")
                   .labelled("Dense matrix size", "rows")
                   .rebuilds();
    padding_ =
        params_
            .add_choice(
                "padding", {{Padding::Identity, "identity"}, {Padding::Zero, "zero"}}, Padding::Identity,
                "identity: pad a max with -inf, a min with +inf; zero: the thesis's (wrong for an all-negative max)")
            .labelled("Padding")
            .rebuilds();
    seed_ = params_.add_int("seed", 1, 0, 1000000, "random data seed").labelled("Random seed").rebuilds();
    params_.group("CG solver");
    cg_c_ = params_.add_float("cg_c", 10.0, 0.01, 1000.0, "CG: solves (I - c·L) x = b, L the 5-point Laplacian")
                .labelled("CG coefficient c")
                .rebuilds()
                .log_scaled();
    cg_form_ =
        params_
            .add_choice(
                "cg_form",
                {{CgForm::Banded, "banded"}, {CgForm::OneDispatch, "one-dispatch"}, {CgForm::Pipelined, "pipelined"}},
                CgForm::Banded,
                "modern CG: banded (A as 5 diagonals, 64 bytes a value), one-dispatch (40), pipelined (24)")
            .labelled("CG iteration")
            .rebuilds();
    cg_tolerance_ = params_.add_float("cg_tolerance", 1e-5, 1e-7, 1e-1, "CG: stop when ||r|| / ||b|| is below this")
                        .labelled("CG tolerance")
                        .log_scaled();
    cg_check_every_ =
        params_.add_int("cg_check_every", 10, 1, 200, "CG: iterations a frame; the residual is read between frames")
            .labelled("CG iterations a frame");
    cg_max_iterations_ =
        params_.add_int("cg_max_iterations", 2000, 1, 4000, "CG: stop here if the tolerance is not reached")
            .labelled("CG limit", "iterations");
    params_.group("Timing");
    runs_ = params_.add_int("runs", 20, 1, 1000, "Run: how many timed applications").labelled("Timed runs");
    params_.group("Picture");
    colormap_ = params_.add_choice("colormap", render::colormap_names(), "coolwarm", "colour map of the picture")
                    .labelled("Colour map");
    picture_ =
        params_
            .add_choice(
                "picture", {{Picture::Fields, "fields"}, {Picture::Residual, "residual"}, {Picture::Layout, "layout"}},
                Picture::Fields,
                "fields: operands and result on their grid; residual: CG's r, own scale; layout: texel channels")
            .labelled("Picture");
    index_ =
        params_
            .add_choice(
                "index", {{Index::Integer, "integer"}, {Index::Frac, "frac"}}, Index::Integer,
                "texture layout, banded and cg: find V's quads by integer arithmetic, or the thesis's float formulas")
            .labelled("Index arithmetic")
            .rebuilds();
    upload_matrix_ =
        params_
            .add_bool("upload_matrix", false,
                      "banded, cg (banded form): upload A again before each application (Bleton 2005 4.4.1)")
            .labelled("Upload the matrix each time")
            .rebuilds();
  }

  std::string name() const override { return "linalg"; }
  std::string title() const override { return "Linear algebra on the GPU (Bleton 2005, ch. 3)"; }
  std::vector<Inspectable> inspectables() const override {
    std::vector<Inspectable> out;
    auto panels = work_->panels();
    for (size_t i = 0; i < panels.size(); ++i)
      out.push_back({panels[i].name + ", as drawn", {nullptr, panels_[i].get()}, "float", panels_[i]->width()});
    if (residual_) out.push_back({"r, as drawn", {nullptr, residual_.get()}, "float", residual_->width()});
    return out;
  }
  render::Legend legend() const override {
    // side counts texels of 4 values: the grid drawn is 2·side values a row
    std::string side = "side " + side_.param().text() + " (" + std::to_string(2 * *side_) + "² values)";
    std::vector<std::string> lines = {
        legend_title(), status(),
        legend_values(op_) + ", " + side + ", " + legend_values(layout_choice_, data_, index_)};
    if (is_extreme() && scalar_read_) lines.back() = pass_chain();  // the passes say the layout and the padding
    if (runs_user_kernel()) lines.push_back("on your kernel (exercise " + user_exercise() + ")");
    std::string cmap = *colormap_;
    if (picture() == Picture::Layout) return layout_.legend(lines);
    if (picture() == Picture::Residual)
      return {lines, render::LegendBar{cmap, r_lo_, r_hi_, "r = b - A x, as CG updates it"}, residual_chart()};
    return {lines, render::LegendBar{cmap, lo_, hi_, "the vectors' values"}, fields_chart()};
  }

  WorkloadConfig config() const {
    WorkloadConfig c;
    c.op = *op_;
    c.variant = *variant_;
    c.layout = *layout_choice_;
    c.side = *side_;
    c.diagonals = *diagonals_;
    c.dense_n = *dense_n_;
    c.cg_c = *cg_c_;
    c.cg_form = *cg_form_;
    c.float_float = *dot_precision_ == DotPrecision::FloatFloat;
    c.frac_index = *index_ == Index::Frac;
    c.upload_matrix = *upload_matrix_;
    c.fields = *data_ == Operands::Fields;
    c.sign = *data_ == Operands::Negative ? -1 : *data_ == Operands::Positive ? 1 : 0;
    c.zero_pad = *padding_ == Padding::Zero;
    c.seed = *seed_;
    return c;
  }

  void build(gpu::Context& ctx) override {
    if (view_ && &ctx != ctx_) view_.reset();
    auto w = std::make_unique<Workload>(ctx, config());
    if (user_kernel_ && w->user_kernel_unfit(user_op_, *user_kernel_).empty()) w->use_kernel(user_op_, user_kernel_);
    uint32_t width = w->grid_width(), height = (w->n() + width - 1) / width;
    auto image = [&] {
      return std::make_unique<gpu::Image>(ctx, width, height, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
    };
    std::vector<std::unique_ptr<gpu::Image>> panels;
    for (size_t i = 0; i < w->panels().size(); ++i) panels.push_back(image());
    auto residual = w->residual() ? image() : nullptr;
    if (!view_) view_ = std::make_unique<render::HeatmapView>(ctx);
    ctx_ = &ctx;
    work_ = std::move(w);
    panels_ = std::move(panels);
    residual_ = std::move(residual);
    comparison_ = {};
    problem_.clear();
    params_.rebuild_pending = false;
    start();
  }

  // The exercises' kernels (axpby, banded, dot, cg-update), once they passed their check, run
  // in place of the lab's own on its buffers (Workload::use_kernel) where the knobs fit the
  // exercise's contract; the panel says why not where they do not (at the offer, or after a
  // rebuild: then the lab's own kernel runs until they fit again).
  bool use_kernel(const std::string& op, const exercise::UserKernel* kernel) override {
    if (!Workload::user_op(op)) return false;
    user_kernel_ = nullptr;
    user_op_.clear();
    refused_.clear();
    scalar_read_ = false, refit_ = true;  // the next frame's result is the other kernel's
    if (work_) work_->use_kernel(op, nullptr);
    if (!kernel) return true;
    if (work_) {
      std::string unfit = work_->user_kernel_unfit(op, *kernel);
      if (!unfit.empty()) {
        refused_ = unfit;
        return false;
      }
      work_->use_kernel(op, kernel);
    }
    user_kernel_ = kernel;
    user_op_ = op;
    return true;
  }

  std::vector<PlotData> plots() const override {
    if (history_.empty()) return {};
    return {{{"cg-residual", "CG iteration", "||r|| / ||b|| (log scale)", true, 110},
             {},
             {history_.begin(), history_.end()}}};
  }

  std::string problem() override {  // after the frame's fence: CG's history, the dot's scalar once
    read_cg();
    if (refit_ && steps_done_ > 0) {  // once the first results exist
      refit_ = false;
      fit_range();
    }
    if (work_->scalar() && steps_done_ > 0 && !scalar_read_) {
      uint32_t slot = Workload::scalar_slot();
      scalar_ = {work_->ops().scalars().get(slot), work_->ops().scalars().get(slot + 1)};
      scalar_read_ = true;
      if (is_extreme()) {  // the CPU's answer and the check, once
        work_->run_cpu();
        extreme_check_ = work_->check();
      }
    }
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
      uint32_t cap = *cg_max_iterations_, done = work_->cg_iterations();
      applications = done >= cap ? 0 : std::min(steps * *cg_check_every_, cap - done);
    }
    if (!converged_ && applications > 0) {
      gpu::Profiler::Scope s(prof, cmd, work_->name(), applications * work_->bytes(), applications * work_->flops());
      for (uint32_t i = 0; i < applications; ++i) work_->record(cmd, &prof);
      steps_done_ += steps;
      cg_pending_ = is_cg;
    }
    auto panels = work_->panels();
    double bytes = 0;
    for (auto& p : panels) bytes += p.vec->bytes() + 4.0 * work_->n();
    gpu::Profiler::Scope s(prof, cmd, "linalg.unpack", bytes, 0);
    for (size_t i = 0; i < panels.size(); ++i) work_->ops().unpack(cmd, *panels[i].vec, *panels_[i]);
    if (residual_) work_->ops().unpack(cmd, *work_->residual(), *residual_);
  }

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope s(prof, cmd, "linalg.draw", 4.0 * frame.extent.width * frame.extent.height, 0);
    std::string cmap = *colormap_;
    if (picture() == Picture::Layout) return layout_.draw(cmd, frame, *view_);
    if (picture() == Picture::Residual) {
      view_->draw(cmd, frame, *residual_,
                  {cmap, r_lo_, r_hi_, false, render::chart_rect(frame.area, residual_chart())});
      return;
    }
    auto c = fields_chart();
    auto r = render::chart_rect(frame.area, c);
    for (size_t i = 0; i < panels_.size(); ++i)
      view_->draw(cmd, frame, *panels_[i], {cmap, lo_, hi_, false, panel_rect(r, c, i, panels_[i]->width())});
  }

  // The panel: the operator and its size, the dot's or CG's result, Run's timing, then the picture and the
  // thesis's index arithmetic.
  void ui() override {
    auto& c = work_->config();
    ImGui::TextWrapped("%s, %s, %u values, %s layout", work_->name().c_str(), work_->size().c_str(), work_->n(),
                       layout_name(c.layout));
    ImGui::TextDisabled("declared per application: %.3g MB, %.3g MFLOP", work_->bytes() / 1e6, work_->flops() / 1e6);
    user_kernel_panel();
    element_panel_.draw(*ctx_, work_->n(), work_->config().layout);
    if (is_extreme()) extreme_ui();
    if ((c.op == Op::Dot || c.op == Op::Norm) && scalar_read_) {  // read once after the first frame (problem())
      if (c.op == Op::Dot && c.float_float)
        ImGui::TextWrapped("result on the GPU: %.7g + %.7g", double(scalar_[0]), double(scalar_[1]));
      else
        ImGui::TextWrapped("result on the GPU: %.7g", double(scalar_[0]));
    }
    if (c.op == Op::Cg) {
      read_cg();
      bool capped = work_->cg_iterations() >= *cg_max_iterations_;
      ImGui::TextWrapped("iteration %u, ||r||/||b|| = %.3e%s", work_->cg_iterations(),
                         history_.empty() ? 1.0 : double(history_.back()),
                         converged_ ? "  (converged)"
                         : capped   ? "  (iteration cap reached)"
                                    : "");
      for (auto& p : plots()) plot(p);  // none before the first iteration
    }
    if (c.op == Op::Cg) {
      if (ImGui::Button("Compare float32 / float-float / double")) {
        ctx_->wait_idle();
        comparison_ = work_->compare_precisions(1e-12f, *cg_max_iterations_);
        start();
      }
      for (auto& e : comparison_.entries)
        ImGui::TextWrapped("%-17s %4u it., true residual %.1e", e.precision.c_str(), e.iterations, e.true_residual);
    }
    if (ImGui::Button("Run")) {
      ctx_->wait_idle();
      last_run_ = measure(*ctx_, *work_, *runs_, gpu::BenchOptions{}, 50);
      fit_range();
    }
    ImGui::SameLine();
    if (ImGui::Button("Fit colour range")) {
      ctx_->wait_idle();
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
    ImGui::TextDisabled("picture: %s; %u values a row",
                        picture() == Picture::Layout     ? "the first texels (as last read)"
                        : picture() == Picture::Residual ? "CG's residual r on its grid"
                                                         : "the vectors on their grid",
                        work_->grid_width());
    if (*picture_ == Picture::Residual && !residual_)
      ImGui::TextDisabled("(the residual picture is CG's: operator cg)");
    frac_panel_.ui(*ctx_);
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    auto values = work_->result().download();
    uint32_t w = work_->grid_width(), h = (work_->n() + w - 1) / w;
    values.resize(size_t(w) * h, 0.0f);
    write_npy(dir / "result.npy", values, {h, w});
    nlohmann::json j = {
        {"arrays", {{"result.npy", "float32 [rows, width]: the result vector, row-major, zero padded"}}},
        {"operator", work_->name()},
        {"n", work_->n()},
        {"applications", steps_done_}};
    if (work_->config().op == Op::Cg) {
      read_cg();
      write_npy(dir / "cg_residual.npy", history_, {history_.size()});
      j["arrays"]["cg_residual.npy"] = "float32 [iterations + 1]: ||r_i|| / ||b||";
      auto r = work_->residual()->download();
      r.resize(size_t(w) * h, 0.0f);
      write_npy(dir / "residual.npy", r, {h, w});
      j["arrays"]["residual.npy"] = "float32 [rows, width]: CG's residual r = b - A x (its recurrence)";
      j["cg_iterations"] = work_->cg_iterations();
      j["cg_converged"] = converged_;
      j["true_relative_residual"] = work_->check();
    }
    if (work_->scalar()) j["scalar"] = work_->ops().scalars().get(Workload::scalar_slot());
    if (is_extreme()) {
      work_->run_cpu();
      j["cpu"] = work_->cpu_values()[0];
      j["relative_error_vs_cpu"] = work_->check();
      j["passes"] = work_->extreme_passes().size();
      j["pass_formula"] = extreme_pass_count(work_->n());
    }
    if (work_->config().op == Op::Dot && work_->config().float_float)
      j["scalar_lo"] = work_->ops().scalars().get(9);  // the float-float result is scalar + scalar_lo
    return j;
  }

  std::string headless_report() override {  // headless: max, min's result and check
    if (!is_extreme()) return "";
    problem();  // the result, read once
    if (!scalar_read_) return "";
    std::string out = extreme_line() + "\n";
    for (auto& line : pass_lines()) out += "  " + line + "\n";
    return out;
  }

  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return linalg::bench(ctx, options);
  }

 private:
  ElementPanel element_panel_;  // Bleton 2005's operator[]
  void start() {
    steps_done_ = 0;
    scalar_read_ = false;
    refit_ = true;
    converged_ = false;
    cg_pending_ = false;
    history_.clear();
    last_run_ = {};
    fit_range();
  }

  // "linalg/cg-update": the exercise of the kernel offered.
  std::string user_exercise() const { return "linalg/" + user_op_.substr(user_op_.find('.') + 1); }
  bool runs_user_kernel() const { return user_kernel_ && work_->user_kernel() == user_kernel_; }
  void user_kernel_panel() {
    if (runs_user_kernel())
      ImGui::TextWrapped("runs on your kernel (exercise %s)%s; the Timings name its dispatches",
                         user_exercise().c_str(),
                         work_->config().op == Op::Cg ? " for the update of x and r, then the lab's r·r" : "");
    else if (user_kernel_)
      warning_text({1, 0.75f, 0.3f, 1}, "your kernel (exercise %s) waits, the lab runs its own: %s",
                   user_exercise().c_str(), work_->user_kernel_unfit(user_op_, *user_kernel_).c_str());
    if (!refused_.empty())
      warning_text({1, 0.75f, 0.3f, 1},
                   "This lab could not run your kernel when offered: %s. Change that, then tick \"Run the lab on my "
                   "kernel\" again.",
                   refused_.c_str());
  }

  bool is_extreme() const { return work_->config().op == Op::Max || work_->config().op == Op::Min; }

  // "max x = 1.49 on the GPU, CPU 1.49: exact; 7 passes (the thesis's 4:1)"; + 0.0 prints -0 as 0
  std::string extreme_line() const {
    auto& c = work_->config();
    auto passes = work_->extreme_passes();
    char b[256];
    double cpu = work_->cpu_values().empty() ? NAN : work_->cpu_values()[0];
    std::snprintf(b, sizeof b, "%s x = %.7g on the GPU, CPU %.7g: %s; %zu %s", op_names()[size_t(c.op)].c_str(),
                  double(scalar_[0]) + 0.0, cpu, extreme_check_ == 0 ? "exact" : "WRONG", passes.size(),
                  c.variant == Variant::Thesis ? "passes (the thesis's 4:1)" : "dispatch (one pass)");
    return b;
  }
  // The passes in one line: "texels 32x32 -> 16x16 -> ... -> 1x1 -> 1 value" (figure 2.10's pyramid).
  std::string pass_chain() const {
    auto& c = work_->config();
    auto passes = work_->extreme_passes();
    if (c.variant == Variant::Modern)
      return "1 dispatch: " + std::to_string(passes[0].in_quads) + " quads -> " +
             std::to_string(work_->extreme_groups()) + " workgroup partials -> 1 value (" +
             (c.zero_pad ? "invocations start from 0" : "invocations start from the identity") + ")";
    bool tex = c.layout == Layout::Texture;
    std::string out = tex ? "passes over texels " : "passes over quads ";
    for (auto& p : passes)
      out += (tex ? std::to_string(p.in_side) + "x" + std::to_string(p.in_side) : std::to_string(p.in_quads)) + " -> ";
    return out + "1 value (" + (c.zero_pad ? "zero padding" : "padding = identity") + ")";
  }
  // One line a pass: what it reads and writes; then the count's formula.
  std::vector<std::string> pass_lines() const {
    auto& c = work_->config();
    std::vector<std::string> out;
    auto passes = work_->extreme_passes();
    if (c.variant == Variant::Modern) {
      uint32_t g = work_->extreme_groups();
      out.push_back("one dispatch: " + std::to_string(g) + " workgroups of 256 walk the " +
                    std::to_string(passes[0].in_quads) + " quads, " +
                    (c.op == Op::Max ? "subgroupMax" : "subgroupMax of -x") +
                    ", then the last workgroup combines the " + std::to_string(g) + " partials");
    } else {
      for (size_t i = 0; i < passes.size(); ++i)
        out.push_back("pass " + std::to_string(i + 1) + ": " + describe_pass(passes[i], c.layout));
      out.push_back("passes = max(1, ceil(log4 n)) = " + std::to_string(extreme_pass_count(work_->n())) +
                    " for n = " + std::to_string(work_->n()) + "; the thesis counts " +
                    std::to_string(passes.size() - 1) + " (its CPU combined the last texel's 4 values)");
    }
    std::string identity = c.op == Op::Max ? "-inf (the identity of max)" : "+inf (the identity of min)";
    std::string zero =
        c.variant == Variant::Thesis ? "0 (the thesis's zeros)" : "0 (the thesis's zero padding, one-pass)";
    out.push_back(std::string(c.variant == Variant::Thesis ? "padding counts as " : "every invocation starts from ") +
                  (c.zero_pad ? zero : identity));
    return out;
  }
  void extreme_ui() {
    if (!scalar_read_) return;
    bool wrong = extreme_check_ != 0;
    if (wrong) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.3f, 1));
    ImGui::TextWrapped("%s", extreme_line().c_str());
    if (wrong) ImGui::PopStyleColor();
    for (auto& line : pass_lines()) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", line.c_str());
    }
  }

  // CG: the residual history of what has run so far (the frame's fence has been waited).
  void read_cg() {
    if (!cg_pending_) return;
    cg_pending_ = false;
    auto h = work_->ops().scalars().history(work_->cg_iterations() + 1);
    double bb = work_->b_dot_b();  // ||r|| / ||b||: the thesis's start x0 = b makes r0 = b − A·b, not b
    history_.clear();
    for (float v : h) history_.push_back(bb > 0 ? float(std::sqrt(std::max(double(v), 0.0) / bb)) : 0.0f);
    for (size_t i = 0; i < h.size() && problem_.empty(); ++i)
      if (!std::isfinite(h[i])) {  // the watchdog: CG broke down; stop iterating
        problem_ = "CG broke down: ||r||^2 is " + std::to_string(h[i]) + " at iteration " + std::to_string(i);
        converged_ = true;
      }
    if (!history_.empty() && history_.back() <= *cg_tolerance_) {
      converged_ = true;
      fit_range();
    }
  }

  // Read-backs for the colour ranges and the layout view, only on request, on convergence or a rebuild.
  void fit_range() {
    float lo = 0, hi = 0;
    for (auto& p : work_->panels()) {
      auto v = p.vec->download();
      auto [a, b] = std::minmax_element(v.begin(), v.end());
      lo = std::min(lo, *a), hi = std::max(hi, *b);
    }
    float m = std::max(std::fabs(lo), std::fabs(hi));
    lo_ = lo < 0 ? -m : 0.0f;
    hi_ = m > 0 ? m : 1.0f;
    if (residual_) {
      auto r = work_->residual()->download();
      float rm = 0;
      for (float x : r) rm = std::max(rm, std::fabs(x));
      r_lo_ = rm > 0 ? -rm : -1.0f, r_hi_ = rm > 0 ? rm : 1.0f;
    }
    auto& x = work_->result();
    layout_.set(*ctx_, layout_chart(x.download(), x.layout(), x.side(), *colormap_, lo_, hi_));
  }

  // "residual" without CG shows the fields.
  Picture picture() const { return *picture_ == Picture::Residual && !residual_ ? Picture::Fields : *picture_; }
  render::Chart fields_chart() const {
    std::vector<std::string> names;
    for (auto& p : work_->panels()) names.push_back(p.name);
    return panels_chart(names, panels_[0]->width(), panels_[0]->height());
  }
  render::Chart residual_chart() const {
    return panels_chart({"r = b - A x (CG's residual)"}, residual_->width(), residual_->height());
  }
  std::string status() const {
    auto op = work_->config().op;
    char b[96];
    if (op == Op::Cg)
      std::snprintf(b, sizeof b, "CG iteration %u, |r|/|b| = %.2e%s", work_->cg_iterations(),
                    history_.empty() ? 1.0 : double(history_.back()), converged_ ? " (converged)" : "");
    else if (op == Op::Dot && scalar_read_)
      std::snprintf(b, sizeof b, "x . y = %.7g", double(scalar_[0]) + double(scalar_[1]) * work_->config().float_float);
    else if (op == Op::Norm && scalar_read_)
      std::snprintf(b, sizeof b, "|x| = %.7g", double(scalar_[0]));
    else if (is_extreme() && scalar_read_)
      return extreme_line();
    else
      std::snprintf(b, sizeof b, "run %llu", (unsigned long long)steps_done_);
    return b;
  }

  Choice<Op> op_;
  Choice<Layout> layout_choice_;
  Choice<Variant> variant_;
  Choice<DotPrecision> dot_precision_;
  Choice<Operands> data_;
  Choice<Padding> padding_;
  Choice<Picture> picture_;
  Choice<Index> index_;
  Knob<bool> upload_matrix_;
  Choice<CgForm> cg_form_;
  Knob<uint32_t> side_, diagonals_, dense_n_, seed_, cg_check_every_, cg_max_iterations_;
  Knob<int> runs_;
  Knob<float> cg_c_, cg_tolerance_;
  Knob<std::string> colormap_;

  gpu::Context* ctx_ = nullptr;
  std::unique_ptr<Workload> work_;
  std::vector<std::unique_ptr<gpu::Image>> panels_;  // work_->panels(), unpacked every frame
  std::unique_ptr<gpu::Image> residual_;             // CG's r
  ChartImage layout_;                                // the layout view, made by fit_range()
  linalg::FracIndexPanel frac_panel_;
  std::unique_ptr<render::HeatmapView> view_;
  std::vector<float> history_;
  bool converged_ = false, cg_pending_ = false;
  float lo_ = -1, hi_ = 1, r_lo_ = -1, r_hi_ = 1;
  BenchRow last_run_;
  PrecisionComparison comparison_;
  std::array<float, 2> scalar_{};  // dot / norm result as last read back
  bool scalar_read_ = false, refit_ = false;
  double extreme_check_ = 0;  // max, min: |GPU - CPU| / |CPU| of the result
  std::string problem_;
  const exercise::UserKernel* user_kernel_ = nullptr;  // use_kernel(): the user's kernel, not owned
  std::string user_op_;                                // its exercise's operator ("linalg.axpby", ...)
  std::string refused_;                                // why use_kernel() refused the last kernel offered
};

}  // namespace

LabEntry linalg_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<LinalgLab>()); }, {}};
}
