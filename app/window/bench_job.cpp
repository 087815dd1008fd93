#include "app/window/bench_job.h"

#include "app/core/session.h"
#include "app/core/settings.h"
#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"

BenchJob::BenchJob(const gpu::ContextOptions& co, const Lab& lab)
    : ctx_(std::make_unique<gpu::Context>(co)), lab_(make_lab(lab.name())) {
  lab_->params().all() = lab.params().all();
}

BenchJob::BenchJob(const gpu::ContextOptions& co, const Lab& lab, bool quick) : BenchJob(co, lab) {
  thread_ = std::thread([this, quick] { run_bench(quick); });
}

BenchJob::BenchJob(const gpu::ContextOptions& co, const Lab& lab, const SweepSpec& sweep) : BenchJob(co, lab) {
  check_sweep(*lab_, sweep);
  sweep_ = true;
  spec_ = sweep;
  thread_ = std::thread([this] { run_sweep(); });
}

BenchJob::BenchJob(const gpu::ContextOptions& co, const Lab& lab, MeasurePeaks) : BenchJob(co, lab) {
  peaks_only_ = true;
  thread_ = std::thread([this] {
    guarded([&] {
      auto peaks = gpu::device_peaks(*ctx_, peaks_path(), true);
      std::lock_guard lock(mutex_);
      state_.peaks = peaks;
    });
  });
}

BenchJob::~BenchJob() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
  cpu_.save();  // a cancelled bench's CPU references too
}

BenchJob::State BenchJob::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

gpu::BenchProgress BenchJob::progress() const {
  std::lock_guard lock(mutex_);
  if (state_.finished) return gpu::estimate(done_, done_, seconds_);
  return gpu::estimate(last_, done_,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - rows_start_).count());
}

double BenchJob::elapsed_s() const {
  std::lock_guard lock(mutex_);
  if (state_.finished) return seconds_;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

nlohmann::json BenchJob::device_facts() const { return device_json(*ctx_); }

// Runs the body; whatever ends it (done, cancelled, failed) is written to the state.
template <class F>
void BenchJob::guarded(F&& body) {
  std::string error;
  bool cancelled = false;
  try {
    body();
  } catch (const gpu::BenchCancelled&) {
    cancelled = true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  ctx_->wait_idle();
  std::lock_guard lock(mutex_);
  state_.error = error;
  state_.cancelled = cancelled;
  state_.validation_messages = ctx_->validation_count();
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  state_.finished = true;
}

void BenchJob::run_bench(bool quick) {
  guarded([&] {
    double gbps = gpu::measure_bandwidth(*ctx_, quick ? (16u << 20) : (256u << 20)).gbps;
    // The roofs: cached, else measured (a full bench caches them; a quick one measures small).
    auto cached = gpu::find_cached_peaks(peaks_path(), ctx_->info);
    auto peaks = cached  ? *cached
                 : quick ? gpu::measure_peaks(*ctx_, true)
                         : gpu::device_peaks(*ctx_, peaks_path(), true);
    {
      std::lock_guard lock(mutex_);
      state_.saxpy_gbps = gbps;
      state_.peaks = peaks;
    }
    if (!quick) cpu_ = gpu::CpuBaselines(cpu_baselines_path(), false);
    gpu::BenchHistory history(bench_times_path(), ctx_->info.name + ", " + ctx_->info.driver);
    const std::string key = gpu::bench_key(lab_->name(), quick, {}, {});
    {
      std::lock_guard lock(mutex_);
      last_ = history.last(key);
      rows_start_ = std::chrono::steady_clock::now();
    }
    BenchOptions options{quick, gbps};
    options.cancel = &cancel_;
    options.cpu_baselines = &cpu_;
    options.on_row = [this](const BenchRow& r) {
      std::lock_guard lock(mutex_);
      state_.rows.push_back(r);
      done_.push_back(r.seconds);
    };
    lab_->bench(*ctx_, options);
    cpu_.save();
    history.record(key, done_);  // a run that ended (a cancelled or failed one threw before)
  });
}

void BenchJob::run_sweep() {
  guarded([&] {
    ::run_sweep(
        *ctx_, *lab_, spec_,
        [this](const SweepPoint& p) {
          std::lock_guard lock(mutex_);
          state_.points.push_back(p);
        },
        &cancel_);
  });
}
