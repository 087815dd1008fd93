#include "bench_job.h"

#include "gpu/bandwidth.h"
#include "modes.h"

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

BenchJob::~BenchJob() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

BenchJob::State BenchJob::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

double BenchJob::seconds() const {
  std::lock_guard lock(mutex_);
  if (state_.finished) return seconds_;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

nlohmann::json BenchJob::device() const { return device_json(*ctx_); }

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
    {
      std::lock_guard lock(mutex_);
      state_.saxpy_gbps = gbps;
    }
    BenchOptions options{quick, gbps};
    options.cancel = &cancel_;
    options.on_row = [this](const BenchRow& r) {
      std::lock_guard lock(mutex_);
      state_.rows.push_back(bench_row_json(r));
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
