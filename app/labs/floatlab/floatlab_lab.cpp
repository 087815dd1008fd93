// The float lab's knobs, panel and dump (seed 002): how this GPU rounds, probe by probe,
// beside IEEE-754 and the seed's 2006 GPUs. Math: compute/floatlab/; pictures: labelled
// charts (floatlab_charts.cpp).
#include "app/core/lab.h"
#include "app/labs/floatlab/charts.h"
#include "app/labs/floatlab/chopped.h"
#include "app/labs/floatlab/controls.h"
#include "app/labs/floatlab/denormals.h"
#include "app/labs/floatlab/paranoia.h"
#include "app/labs/floatlab/report.h"
#include "app/labs/floatlab/table31.h"
#include "app/labs/floatlab/ulp_cancellation.h"
#include "app/widgets/warning_text.h"
#include "compute/floatlab/bench.h"
#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/probes.h"
#include "compute/floatlab/test9.h"
#include "compute/io/npy.h"
#include "render/heatmap_view.h"

#include <imgui.h>

#include <chrono>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>

namespace {

// The pictures the panel offers, in the order of the charts that build() makes.
enum class Picture { Verdicts, ErrorMap, Bits, Table31, UlpCancellation, TowardZero };

class FloatLab : public Lab {
 public:
  FloatLab() {
    params_.group("Sample sizes");
    random_count_ = params_.add_int("random_count", 1 << 20, 1024, 1 << 24, "values in the random probes (TEST 4, 9)")
                        .labelled("Random probe values")
                        .rebuilds();
    ff_count_ = params_.add_int("ff_count", 1 << 16, 1024, 1 << 22, "float-float accuracy: random inputs per operator")
                    .labelled("Float-float inputs")
                    .rebuilds();
    ulp_per_binade_ = params_.add_int("ulp_per_binade", 1024, 16, 1 << 16, "error map: random inputs in each binade")
                          .labelled("Error map inputs", "a binade")
                          .rebuilds();
    paranoia_pairs_ = params_
                          .add_int("paranoia_pairs", 1 << 14, 256, 1 << 20,
                                   "Paranoia's error bounds: random operand pairs an operation")
                          .labelled("Paranoia pairs")
                          .rebuilds();
    table31_count_ = params_
                         .add_int("table31_count", 1 << 14, 256, 1 << 24,
                                  "table 3.1: random inputs an operation and kind (--report uses 5 million)")
                         .labelled("Table 3.1 inputs")
                         .rebuilds();
    params_.group("SIMSURF §14 (Abecassis 2012)");
    ulp_value_ = params_
                     .add_float("ulp_value", 0.1, 0, 1e30,
                                "a value of yours rounded to float beside the report's five (§14.2.2); 0: none")
                     .labelled("Your value to round")
                     .rebuilds();
    cancel_x_ = params_
                    .add_float("cancel_x", 1.1e-8, 1e-12, 1,
                               "x of (1 - cos x) / x^2, the report's example 2 of cancellation (§14.5.1)")
                    .labelled("Cancellation x")
                    .rebuilds();
    params_.group("Random data");
    seed_ = params_.add_int("seed", 1, 0, 1000000, "random seed").labelled("Random seed").rebuilds();
    params_.group("Picture");
    picture_ = params_
                   .add_choice(
                       "picture",
                       {{Picture::Verdicts, "verdicts"},
                        {Picture::ErrorMap, "error map"},
                        {Picture::Bits, "bits"},
                        {Picture::Table31, "table 3.1"},
                        {Picture::UlpCancellation, "ulp and cancellation"},
                        {Picture::TowardZero, "towards zero"}},
                       Picture::Verdicts,
                       "verdicts, error map (ulps), bits (TEST 5, 6), table 3.1, ulp and cancellation, or towards zero")
                   .labelled("Picture");
  }
  std::string name() const override { return "floatlab"; }
  std::string title() const override { return "How this GPU rounds (Da Graça 2006, floating point on GPUs, ch. 3)"; }

  void build(gpu::Context& ctx) override {
    if (view_ && &ctx != ctx_) view_.reset();
    floatlab::Probes probes(ctx);
    auto report = probes.report(*random_count_, *seed_);
    auto accuracy = floatlab::FloatFloat(ctx).accuracy(*ff_count_, *seed_);
    auto rounding = probes.rounding(*random_count_, *seed_);
    auto ulp = probes.ulp_map(*ulp_per_binade_, *seed_);
    auto simsurf = floatlab::ulp_and_cancellation(ctx, *ulp_value_, *cancel_x_);  // Abecassis 2012 §14
    ChartImage verdicts, map, bits, simsurf_chart;
    simsurf_chart.set(ctx, ulp_cancellation_chart(simsurf));
    verdicts.set(ctx, verdict_chart(report));
    map.set(ctx, ulp_chart(ulp));
    bits.set(ctx, bits_chart(report));
    if (!view_) view_ = std::make_unique<render::HeatmapView>(ctx);
    ctx_ = &ctx;
    report_ = std::move(report);
    accuracy_ = std::move(accuracy);
    rounding_ = std::move(rounding);
    controls_ = floatlab::float_controls(ctx);
    ulp_ = std::move(ulp);
    paranoia_ = paranoia_stages(ctx, *paranoia_pairs_);
    stage_table_ = stage_table(ctx, 4096);
    promises_ = floatlab::test_float_controls(ctx);
    table31_ = floatlab::error_ranges(probes, *table31_count_, *seed_);
    division_ = floatlab::division_reading(probes, uint32_t(*table31_count_), *seed_);
    contraction_ = floatlab::test_contraction(ctx, *ff_count_, *seed_);
    charts_[0] = std::move(verdicts), charts_[1] = std::move(map), charts_[2] = std::move(bits);
    charts_[3].set(ctx, table31_chart(table31_));
    ulp_cancellation_ = std::move(simsurf);
    charts_[4] = std::move(simsurf_chart);
    chopped_ = floatlab::chopped_arithmetic(ctx, *ff_count_, *seed_);
    charts_[5].set(ctx, chopped_chart(chopped_));
    params_.rebuild_pending = false;
  }
  void restart() override { build(*ctx_); }
  uint32_t steps_per_frame() const override { return 0; }
  bool steps() const override { return false; }
  void step(VkCommandBuffer, gpu::Profiler&, uint32_t) override {}  // the probes ran in build()

  void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) override {
    gpu::Profiler::Scope s(prof, cmd, "floatlab.draw", 4.0 * frame.extent.width * frame.extent.height, 0);
    chart().draw(cmd, frame, *view_);
  }
  render::Legend legend() const override { return chart().legend({legend_title()}); }
  std::vector<Inspectable> inspectables() const override {
    return {{"the picture's cells", {nullptr, chart().image()}, "float", chart().picture().chart.grid_w, false}};
  }

  // The panel, its widgets in the order they appear.
  // The panel's tables, as data: drawn by ui(), saved by their buttons and by --plot.
  std::vector<TableData> tables() const override {
    std::vector<TableData> out = {probes_table(), accuracy_table(), rounding_table()};
    if (!paranoia_.empty()) out.push_back(paranoia_table(paranoia_));
    if (!stage_table_.rows.empty()) out.push_back(stage_table_data(stage_table_));
    if (!table31_.empty()) out.push_back(table31_table(table31_));
    if (!ulp_cancellation_.table.empty()) out.push_back(ulp_table(ulp_cancellation_));
    if (!ulp_cancellation_.rows.empty()) out.push_back(cancellation_table(ulp_cancellation_));
    if (!promises_.empty()) out.push_back(controls_table(promises_));
    if (!throughput_.empty()) out.push_back(throughput_table());
    if (!denormals_.rows.empty()) out.push_back(denormal_table(denormals_));
    if (!chopped_.probes.empty()) out.push_back(chopped_table(chopped_));
    return out;
  }
  TableData probes_table() const {
    TableData t{"floatlab-probes",
                "The probes on " + (ctx_ ? ctx_->info.name : std::string("this GPU")) +
                    " beside IEEE-754 and the 2006 GPUs (Da Graça 2006)",
                {"test", "question", "found", "IEEE", "7800GTX", "RX1800XL"}};
    t.sentences = 1;
    for (auto& row : report_.rows) {
      t.rows.push_back({row.test, row.question, row.found, row.ieee, row.seed_7800gtx, row.seed_rx1800xl});
      t.colours.push_back({0, 0, row.as_ieee ? 0x80ff80u : 0xffb34du, 0, 0x9a9aa5u, 0x9a9aa5u});
    }
    return t;
  }
  TableData accuracy_table() const {
    TableData t{"floatlab-float-float",
                "Float-float operators against MPFR (Da Graça 2006, table 4.1)",
                {"operator", "correct bits (worst)", "report theory", "report 7800GTX", "which"}};
    t.sentences = 4;
    char bits[32];
    for (auto& a : accuracy_) {
      std::snprintf(bits, sizeof bits, "%.1f", a.bits);
      t.rows.push_back({a.op, a.exact ? "exact" : bits, a.seed_theory, a.seed_measured, a.variant});
    }
    return t;
  }
  TableData throughput_table() const {
    TableData t{"floatlab-throughput",
                "Time of one operation / time of one float addition (Da Graça 2006, fig. 4.2)",
                {"operator", "relative time"}};
    char v[32];
    for (auto& x : throughput_) {
      std::snprintf(v, sizeof v, "%.2f", x.relative_to_add);
      t.rows.push_back({x.op, v});
    }
    return t;
  }
  TableData rounding_table() const {
    TableData t{"floatlab-rounding",
                "Division and built-ins against double precision",
                {"op", "max ulp", "exact", "Vulkan allows", "ok"}};
    char ulp[32], exact[32];
    for (auto& r : rounding_) {
      std::snprintf(ulp, sizeof ulp, "%.2f", r.max_ulp);
      std::snprintf(exact, sizeof exact, "%.1f%%", 100 * r.correctly_rounded);
      t.rows.push_back({r.op, ulp, exact, r.vulkan_bound, r.within_bound ? "yes" : "NO"});
      t.colours.push_back({0, 0, 0, 0, r.within_bound ? 0u : 0xff6060u});
    }
    return t;
  }

  void ui() override {
    ImGui::TextWrapped(
        "Each probe is a compute dispatch of one operation over bit patterns; 'IEEE' is what "
        "binary32 with round-to-nearest-even gives on this CPU. Pictures (the Picture list above): "
        "the verdicts as a table, the error map of each operation over its input range, or the bits of "
        "TEST 5 and 6 as Da Graça 2006's tables print them.");
    table(probes_table());
    for (auto& c : report_.test1_changed) ImGui::BulletText("TEST 1: %s", c.c_str());
    table31_panel(table31_, division_);
    ulp_cancellation_panel(ulp_cancellation_);
    denormals_panel(*ctx_, denormals_);
    chopped_panel(chopped_);
    stage_table_panel(stage_table_);
    paranoia_panel(paranoia_);
    controls_panel(promises_, contraction_);
    test9_panel();
    ImGui::Separator();
    ImGui::TextUnformatted("Float-float operators vs MPFR (table 4.1)");
    ImGui::TextWrapped(
        "add12_priest and add22_priest are the report's operators as it prints them; add12 (TwoSum) and "
        "add22_improved are ours. The report's figures stand beside its own operators only (hover a name).");
    table(accuracy_table());
    ImGui::TextDisabled("mul12_fma is exact only where fma() is fused (TEST 4).");
    if (ImGui::Button("Measure throughput")) {  // blocks the window for a moment
      ctx_->wait_idle();
      throughput_ = floatlab::FloatFloat(*ctx_).throughput(1u << 18, 256, 50);
    }
    if (!throughput_.empty()) {
      // Da Graça's unit: the time of one float addition = 1 (the report's figure 4.2); a
      // labelled bar an operator.
      double top = 0;
      for (auto& t : throughput_) top = std::max(top, t.relative_to_add);
      ImGui::TextUnformatted("time of one operation / time of one float addition");
      if (ImGui::BeginTable("ff_throughput", 2, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("operator", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthStretch);
        for (auto& t : throughput_) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(t.op.c_str());
          ImGui::TableNextColumn();
          char value[32];
          std::snprintf(value, sizeof value, "%.2f", t.relative_to_add);
          ImGui::ProgressBar(top > 0 ? float(t.relative_to_add / top) : 0.0f, {-1, 0}, value);
        }
        ImGui::EndTable();
      }
      table(throughput_table());  // the bars' figures, to save
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Beyond Da Graça 2006: division and built-ins vs double precision");
    table(rounding_table());
    ImGui::TextWrapped("float controls: f32 denormals preservable %s, flushable %s; RTE %s, RTZ %s",
                       controls_.denorm_preserve32 ? "yes" : "no", controls_.denorm_flush32 ? "yes" : "no",
                       controls_.rte32 ? "yes" : "no", controls_.rtz32 ? "yes" : "no");
  }

  // TEST 9 at the report's size, run a chunk a frame (sized to about 50 ms) with its progress.
  void test9_panel() {
    if (!ImGui::CollapsingHeader("TEST 9 at two billion pairs")) return;
    const uint64_t total = floatlab::kTest9Pairs;
    if (!t9_) {
      ImGui::TextWrapped("The report ran TEST 9 on two billion random values; the table above on %lld.",
                         (long long)*random_count_);
      if (ImGui::Button("Run TEST 9 at 2e9 pairs"))
        t9_ = std::make_unique<floatlab::SignSymmetry>(*ctx_), t9_paused_ = false;
      return;
    }
    if (t9_->done() < total && !t9_paused_) {
      auto t0 = std::chrono::steady_clock::now();
      t9_->run(std::min(t9_chunk_, total - t9_->done()));
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      t9_chunk_ = std::clamp<uint64_t>(uint64_t(double(t9_chunk_) * 50.0 / std::max(ms, 1.0)), 1u << 16, 1ull << 30);
    }
    ImGui::ProgressBar(float(double(t9_->done()) / double(total)), ImVec2(ImGui::GetContentRegionAvail().x, 0));
    ImGui::TextWrapped("%llu of %llu pairs: %llu violations (the report: none, on the 7800 GTX and the RX1800XL)",
                       (unsigned long long)t9_->done(), (unsigned long long)total,
                       (unsigned long long)t9_->violations());
    for (auto& e : t9_->examples()) ImGui::BulletText("A = %08x, B = %08x", e[0], e[1]);
    if (t9_->done() < total && ImGui::Button(t9_paused_ ? "Resume" : "Pause")) t9_paused_ = !t9_paused_;
    if (t9_->done() >= total && ImGui::Button("Clear")) t9_.reset();
  }

  nlohmann::json dump(const std::filesystem::path& dir) override {
    write_npy(dir / "test5_test6_bits.npy", bit_picture(report_), {64, 65});
    std::vector<float> ulps(ulp_.max_ulp.begin(), ulp_.max_ulp.end());
    write_npy(dir / "error_map_ulp.npy", ulps, {ulp_.ops.size(), ulp_.binades()});
    auto j = report_parts_json({report_, accuracy_, rounding_, controls_, paranoia_, stage_table_, table31_, division_,
                                promises_, contraction_, t9_.get(), &ulp_cancellation_, &denormals_, &chopped_});
    j["arrays"] = {{"test5_test6_bits.npy", "float32 [64, 65]: bits of TEST 5 | 0.5 | TEST 6, row i-1, sign first"},
                   {"error_map_ulp.npy", "float32 [ops, binades]: largest error in ulps, x in [2^e, 2^(e+1))"}};
    j["error_map"] = {{"ops", ulp_.ops}, {"e_lo", ulp_.e_lo}, {"e_hi", ulp_.e_hi}, {"per_binade", ulp_.per_binade}};
    return j;
  }

  // Float-float throughput (seed 002, ch. 4.3.1): dependent operations in registers, in
  // the seed's unit (the time of a float addition = 1), beside native fp64 where present.
  std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) override {
    return floatlab::bench(ctx, options);
  }

  const floatlab::Report& report() const { return report_; }

 private:
  gpu::Context* ctx_ = nullptr;
  floatlab::Report report_;
  std::vector<floatlab::FfAccuracy> accuracy_;
  std::vector<floatlab::RoundingRow> rounding_;
  std::vector<floatlab::FfThroughput> throughput_;
  floatlab::FloatControls controls_;
  floatlab::UlpMap ulp_;
  std::vector<floatlab::ParanoiaReport> paranoia_;
  StageTable stage_table_;
  std::vector<floatlab::Promise> promises_;
  std::vector<floatlab::ErrorRange> table31_;
  floatlab::DivisionReading division_;
  std::unique_ptr<floatlab::SignSymmetry> t9_;  // TEST 9 at two billion pairs, a chunk a frame
  uint64_t t9_chunk_ = 1u << 20;
  bool t9_paused_ = false;
  floatlab::ContractionTest contraction_;
  floatlab::UlpCancellation ulp_cancellation_;
  floatlab::DenormalPenalty denormals_;  // the panel's "Time the loops" (none until pressed)
  floatlab::Chopped chopped_;            // Da Graça 2006 under rounding towards zero
  // verdicts, error map, bits, table 3.1, ulp and cancellation, towards zero: Picture's order
  std::array<ChartImage, 6> charts_;
  const ChartImage& chart() const { return charts_[size_t(*picture_)]; }
  std::unique_ptr<render::HeatmapView> view_;
  Knob<uint32_t> random_count_, ff_count_, ulp_per_binade_, paranoia_pairs_, seed_;
  Knob<uint64_t> table31_count_;
  Knob<double> ulp_value_, cancel_x_;
  Choice<Picture> picture_;
};

}  // namespace

LabEntry floatlab_lab() {
  return {[] { return std::unique_ptr<Lab>(std::make_unique<FloatLab>()); },
          {},
          {{"--report", "[--out report.json] [--quick]", "how this device rounds (Da Graça 2006)", run_float_report},
           {"--cancellation", "[--out FILE.json]",
            "rounding to float and catastrophic cancellation (Abecassis 2012, SIMSURF §14)", run_ulp_cancellation}}};
}
