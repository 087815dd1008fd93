// The window's Bench panel: the lab's benchmark and parameter sweeps, run by a BenchJob beside
// the frame loop (the window keeps drawing; the lab pauses), with progress, Cancel, the rows
// as they arrive and the sweep's plot. Results are written to bench/ as JSON.
#include "app/figures.h"
#include "app/modes.h"
#include "app/window.h"

#include "app/plot.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace {

void write_result(const std::filesystem::path& path, const nlohmann::json& j) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void rows_table(const nlohmann::json& rows) {
  if (!ImGui::BeginTable("bench", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (const char* h : {"pass, size", "ms", "GB/s", "GFLOP/s", "% roof", "vs CPU"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (auto& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s %s", r["pass"].get<std::string>().c_str(), r["size"].get<std::string>().c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.4f", r["median_ms"].get<double>());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(figure(r["gbps"].get<double>(), "%.1f").c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(figure(r["gflops"].get<double>(), "%.1f").c_str());
    ImGui::TableNextColumn();
    if (r.contains("roofline"))
      ImGui::Text("%s %.0f%%", r["roofline"]["bound"].get<std::string>() == "memory" ? "mem" : "fp32",
                  r["roofline"]["percent_of_bound"].get<double>());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(figure(r["reference"].value("gain_over_cpu", 0.0), "%.3gx").c_str());
  }
  ImGui::EndTable();
}

}  // namespace

bool Window::bench_running() const { return job_ && !job_->state().finished; }

void Window::start_bench(bool sweep, bool peaks) {
  if (bench_running()) return;
  job_.reset();
  job_collected_ = false;
  try {
    if (peaks)
      job_ = std::make_unique<BenchJob>(bench_context_, *lab_, BenchJob::MeasurePeaks{});
    else if (sweep)
      job_ = std::make_unique<BenchJob>(bench_context_, *lab_, sweep_);
    else
      job_ = std::make_unique<BenchJob>(bench_context_, *lab_, bench_quick_);
    bench_started_frame_ = frame_count_;
    std::printf("window: %s started at frame %llu\n",
                peaks   ? "peaks"
                : sweep ? "sweep"
                        : "bench",
                (unsigned long long)frame_count_);
  } catch (const std::exception& e) {
    error_ = std::string("could not start the benchmark: ") + e.what();
  }
}

// Once a frame: a finished job's results are kept, written to bench/ and said on stdout.
void Window::poll_bench() {
  if (!job_ || job_collected_) return;
  auto s = job_->state();
  if (!s.finished) return;
  job_collected_ = true;
  if (s.peaks.valid() && (job_->is_peaks() || !peaks_.valid())) peaks_ = s.peaks, saxpy_gbps_ = s.peaks.saxpy_gbps;
  if (job_->is_peaks()) {
    if (!s.error.empty()) error_ = "measuring the device's peaks failed: " + s.error;
    std::printf("window: peaks measured: fp32 %.1f GFLOP/s, saxpy %.1f GB/s\n", s.peaks.fp32_gflops,
                s.peaks.saxpy_gbps);
    return;
  }
  std::string lab = job_->lab().name();
  std::filesystem::path path;
  size_t count = job_->is_sweep() ? s.points.size() : s.rows.size();
  if (job_->is_sweep()) {
    path = std::filesystem::path("bench") / ("sweep-" + lab + "-" + job_->sweep_spec().param + ".json");
    write_result(path, {{"device", job_->device()}, {"sweep", sweep_json(job_->lab(), job_->sweep_spec(), s.points)}});
  } else {
    path = std::filesystem::path("bench") / ("bench-" + lab + ".json");
    write_result(path, {{"device", job_->device()},
                        {"saxpy_gbps", s.saxpy_gbps},
                        {"peaks", gpu::to_json(s.peaks)},
                        {"quick", bench_quick_},
                        {"cancelled", s.cancelled},
                        {"labs", {{lab, s.rows}}}});
    if (!s.cancelled && s.error.empty()) expected_rows_[lab + (bench_quick_ ? "/quick" : "")] = count;
  }
  bench_file_ = std::filesystem::absolute(path).string();
  if (!s.error.empty()) error_ = "benchmark failed: " + s.error;
  std::printf("window: %s finished at frame %llu, %zu %s in %.1f s%s\n", job_->is_sweep() ? "sweep" : "bench",
              (unsigned long long)frame_count_, count, job_->is_sweep() ? "points" : "rows", job_->seconds(),
              s.cancelled ? " (cancelled)" : "");
  if (opts_.validate)
    std::fprintf(stderr, "vklab: validation (bench): %llu messages\n", (unsigned long long)s.validation_messages);
}

void Window::bench_panel() {
  ImGui::TextWrapped("Runs on its own Vulkan device and queue beside the window; the lab pauses meanwhile.");
  bool running = bench_running();
  ImGui::BeginDisabled(running);
  ImGui::Checkbox("quick (small sizes)", &bench_quick_);
  ImGui::SameLine();
  if (ImGui::Button("Run benchmark (B)")) start_bench(false);
  ImGui::EndDisabled();
  if (running) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel (Esc)")) job_->cancel();
  }
  if (!job_ || job_->is_peaks()) return;
  auto s = job_->state();
  if (!job_->is_sweep()) {
    auto it = expected_rows_.find(job_->lab().name() + (bench_quick_ ? "/quick" : ""));
    size_t n = s.rows.size();
    float frac = s.finished                   ? 1.0f
                 : it != expected_rows_.end() ? float(n) / float(std::max<size_t>(it->second, 1))
                                              : float(n) / float(n + 2);
    char text[160];
    std::snprintf(text, sizeof text, "%zu rows%s, %.1f s%s", n,
                  it != expected_rows_.end() ? (" of " + std::to_string(it->second)).c_str() : "", job_->seconds(),
                  s.finished ? (s.cancelled ? ", cancelled" : ", done") : ", timing the next row");
    ImGui::ProgressBar(std::min(frac, 1.0f), {-1, 0}, text);
    rows_table(s.rows);
  }
  if (s.finished && !bench_file_.empty()) ImGui::TextWrapped("written to %s", bench_file_.c_str());
}

// Long: the sweep's form, its progress and its plot, one after the other.
void Window::sweep_panel() {
  std::vector<const Param*> numeric;
  for (auto& p : lab_->params().all())
    if (p.kind == Param::Kind::Float || p.kind == Param::Kind::Int) numeric.push_back(&p);
  if (numeric.empty()) return;
  bool running = bench_running();
  ImGui::BeginDisabled(running);
  const Param* chosen = numeric.front();
  for (auto* p : numeric)
    if (p->name == sweep_.param) chosen = p;
  if (ImGui::BeginCombo("parameter", param_label(*chosen).c_str())) {
    for (auto* p : numeric)
      if (ImGui::Selectable(param_label(*p).c_str(), p == chosen)) {
        chosen = p;
        sweep_.from = std::max(p->min, p->value / 2);
        sweep_.to = std::min(p->max, std::max(p->value * 2, sweep_.from + 1e-6));
      }
    ImGui::EndCombo();
  }
  if (sweep_.param != chosen->name) {
    sweep_.param = chosen->name;
    sweep_.from = std::max(chosen->min, chosen->value / 2);
    sweep_.to = std::min(chosen->max, std::max(chosen->value * 2, sweep_.from + 1e-6));
  }
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
      error_ = "a log sweep needs from and to above 0";
    else
      start_bench(true);
  }
  ImGui::EndDisabled();
  if (running && job_->is_sweep()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) job_->cancel();
  }
  if (!job_ || !job_->is_sweep()) return;
  auto s = job_->state();
  const auto& spec = job_->sweep_spec();
  char text[160];
  std::snprintf(text, sizeof text, "%zu of %d points, %.1f s", s.points.size(), spec.count, job_->seconds());
  ImGui::ProgressBar(float(s.points.size()) / float(spec.count), {-1, 0}, text);
  std::vector<double> x, ms;
  for (auto& p : s.points)
    if (p.problem.empty()) x.push_back(p.value), ms.push_back(p.ms_per_step);
  plot({"sweep-" + job_->lab().name() + "-" + spec.param, spec.param, "GPU ms a step", false, 120}, x, ms);
  if (ImGui::BeginTable("sweep", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (const char* h : {spec.param.c_str(), "ms a step", "GB/s"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (auto& p : s.points) {
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
}
