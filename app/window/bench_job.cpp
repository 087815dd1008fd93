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
}

BenchJob::State BenchJob::state() const {
  std::lock_guard lock(mutex_);
  return state_;
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
  vkDeviceWaitIdle(ctx_->device);
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
    BenchOptions options{quick, gbps};
    options.cancel = &cancel_;
    options.on_row = [this](const BenchRow& r) {
      std::lock_guard lock(mutex_);
      state_.rows.push_back(r);
    };
    lab_->bench(*ctx_, options);
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
