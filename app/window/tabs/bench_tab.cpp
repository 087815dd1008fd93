#include "app/window/tabs/bench_tab.h"

#include "app/core/figures.h"
#include "app/widgets/plot.h"
#include "app/widgets/table.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace {

// The bench's rows as a table (columns sized to their figures, CSV and PNG like a plot's).
void rows_table(const std::string& lab, const std::vector<BenchRow>& rows, const gpu::Peaks& peaks) {
  TableData t{"bench-" + lab,
              "Benchmark of the " + lab + " lab",
              {"pass", "size", "ms", "GB/s", "GFLOP/s", "% roof", "vs CPU"}};
  char ms[32];
  for (auto& r : rows) {
    std::snprintf(ms, sizeof ms, "%.4f", r.median_ms);
    std::string roof;
    if (peaks.valid()) {
      auto at = gpu::place(peaks, r.bytes, r.flops, r.median_ms);
      char b[48];
      std::snprintf(b, sizeof b, "%s %.0f%%", at.bound == "memory" ? "mem" : "fp32", at.percent);
      if (!at.bound.empty()) roof = b;
    }
    t.rows.push_back({r.pass, r.size, ms, figure(r.gbps(), "%.1f"), figure(r.gflops(), "%.1f"), roof,
                      figure(r.reference.value("gain_over_cpu", 0.0), "%.3gx")});
  }
  table(t);
}

// The sweep's range when a parameter is chosen: half to twice its value, within its range.
void default_range(SweepSpec& spec, const Param& p) {
  spec.param = p.name;
  spec.from = std::max(p.min, p.value / 2);
  spec.to = std::min(p.max, std::max(p.value * 2, spec.from + 1e-6));
}

}  // namespace

void BenchTab::draw(Session& s, BenchRunner& runner) {
  bench(s, runner);
  if (ImGui::CollapsingHeader("Sweep a parameter", ImGuiTreeNodeFlags_DefaultOpen)) {
    sweep_form(s, runner);
    if (runner.job() && runner.job()->is_sweep()) sweep_results(*runner.job());
  }
}

void BenchTab::bench(Session& s, BenchRunner& runner) {
  ImGui::TextWrapped("Runs on its own Vulkan device and queue beside the window; the lab pauses meanwhile.");
  bool running = runner.running();
  ImGui::BeginDisabled(running);
  ImGui::Checkbox("quick (small sizes)", &quick_);
  ImGui::SameLine();
  if (ImGui::Button("Run benchmark (B)")) runner.start_bench(s, quick_);
  ImGui::EndDisabled();
  if (running) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel (Esc)")) runner.cancel();
  }
  const BenchJob* job = runner.job();
  if (!job || job->is_peaks()) return;
  auto st = job->state();
  if (!job->is_sweep()) {
    auto p = job->progress();
    std::string text = p.text() + (st.finished ? (st.cancelled ? ", cancelled" : ", done") : "");
    ImGui::ProgressBar(st.finished ? 1.0f : p.fraction(), {-1, 0}, text.c_str());
    rows_table(job->lab().name(), st.rows, st.peaks);
  }
  if (st.finished && !runner.result_file().empty()) ImGui::TextWrapped("written to %s", runner.result_file().c_str());
}

void BenchTab::sweep_form(Session& s, BenchRunner& runner) {
  std::vector<const Param*> numeric;
  for (auto& p : s.lab().params().all())
    if (p.kind == Param::Kind::Float || p.kind == Param::Kind::Int) numeric.push_back(&p);
  if (numeric.empty()) return;
  bool running = runner.running();
  ImGui::BeginDisabled(running);
  const Param* chosen = numeric.front();
  for (auto* p : numeric)
    if (p->name == sweep_.param) chosen = p;
  if (ImGui::BeginCombo("parameter", param_label(*chosen).c_str())) {
    for (auto* p : numeric)
      if (ImGui::Selectable(param_label(*p).c_str(), p == chosen)) chosen = p, default_range(sweep_, *p);
    ImGui::EndCombo();
  }
  if (sweep_.param != chosen->name) default_range(sweep_, *chosen);
  double lo = chosen->min, hi = chosen->max;
  ImGui::DragScalar("from", ImGuiDataType_Double, &sweep_.from, float((hi - lo) / 500), &lo, &hi, "%.4g");
  ImGui::DragScalar("to", ImGuiDataType_Double, &sweep_.to, float((hi - lo) / 500), &lo, &hi, "%.4g");
  ImGui::SliderInt("points", &sweep_.count, 2, 32);
  int steps = int(sweep_.steps);
  if (ImGui::SliderInt("steps a point", &steps, 1, 500, "%d", ImGuiSliderFlags_Logarithmic)) sweep_.steps = steps;
  ImGui::Checkbox("log spacing", &sweep_.log);
  ImGui::SameLine();
  if (ImGui::Button("Run sweep")) {
    if (sweep_.log && (sweep_.from <= 0 || sweep_.to <= 0))
      s.error = "a log sweep needs from and to above 0";
    else
      runner.start_sweep(s, sweep_);
  }
  ImGui::EndDisabled();
  if (running && runner.job()->is_sweep()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) runner.cancel();
  }
}

// The sweep's progress, its plot and its table.
void BenchTab::sweep_results(const BenchJob& job) {
  auto st = job.state();
  const auto& spec = job.sweep_spec();
  char text[160];
  std::snprintf(text, sizeof text, "%zu of %d points, %.1f s", st.points.size(), spec.count, job.elapsed_s());
  ImGui::ProgressBar(float(st.points.size()) / float(spec.count), {-1, 0}, text);
  std::vector<double> x, ms;
  for (auto& p : st.points)
    if (p.problem.empty()) x.push_back(p.value), ms.push_back(p.ms_per_step);
  plot({"sweep-" + job.lab().name() + "-" + spec.param, spec.param, "GPU ms a step", false, 120}, x, ms);
  if (!ImGui::BeginTable("sweep", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (const char* h : {spec.param.c_str(), "ms a step", "GB/s"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (auto& p : st.points) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", p.value);
    ImGui::TableNextColumn();
    ImGui::Text(p.problem.empty() ? "%.4f" : "stopped", p.ms_per_step);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(figure(p.gbps, "%.1f").c_str());
  }
  ImGui::EndTable();
}
