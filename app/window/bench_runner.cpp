#include "app/window/bench_runner.h"
#include "compute/io/output.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

namespace {

void write_result(const std::filesystem::path& path, const nlohmann::json& j) {
  std::filesystem::create_directories(path.parent_path());
  io::write_file(path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace

void BenchRunner::started(const char* what, std::unique_ptr<BenchJob> job) {
  job_ = std::move(job);
  collected_ = false;
  std::printf("window: %s started at frame %llu\n", what, (unsigned long long)frame_);
}

void BenchRunner::start_bench(Session& s, bool quick) {
  if (running()) return;
  job_.reset();
  quick_ = quick;
  try {
    started("bench", std::make_unique<BenchJob>(co_, s.lab(), quick));
  } catch (const std::exception& e) {
    s.error = std::string("could not start the benchmark: ") + e.what();
  }
}

void BenchRunner::start_sweep(Session& s, const SweepSpec& spec) {
  if (running()) return;
  job_.reset();
  try {
    started("sweep", std::make_unique<BenchJob>(co_, s.lab(), spec));
  } catch (const std::exception& e) {
    s.error = std::string("could not start the sweep: ") + e.what();
  }
}

void BenchRunner::start_peaks(Session& s) {
  if (running()) return;
  job_.reset();
  try {
    started("peaks", std::make_unique<BenchJob>(co_, s.lab(), BenchJob::MeasurePeaks{}));
  } catch (const std::exception& e) {
    s.error = std::string("could not measure the device's peaks: ") + e.what();
  }
}

void BenchRunner::stop(bool finish) {
  if (!running()) return;
  if (!finish) job_->cancel();
  while (running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void BenchRunner::poll(Session& session, uint64_t frame, bool validate) {
  frame_ = frame;
  if (!job_ || collected_) return;
  auto s = job_->state();
  if (!s.finished) return;
  collected_ = true;
  if (s.peaks.valid() && (job_->is_peaks() || !session.peaks.valid())) session.peaks = s.peaks;
  if (job_->is_peaks()) {
    if (!s.error.empty()) session.error = "measuring the device's peaks failed: " + s.error;
    std::printf("window: peaks measured: fp32 %.1f GFLOP/s, saxpy %.1f GB/s\n", s.peaks.fp32_gflops,
                s.peaks.saxpy_gbps);
    return;
  }
  std::string lab = job_->lab().name();
  std::filesystem::path path;
  size_t count = job_->is_sweep() ? s.points.size() : s.rows.size();
  if (job_->is_sweep()) {
    path = std::filesystem::path("bench") / ("sweep-" + lab + "-" + job_->sweep_spec().param + ".json");
    write_result(path,
                 {{"device", job_->device_facts()}, {"sweep", sweep_json(job_->lab(), job_->sweep_spec(), s.points)}});
  } else {
    path = std::filesystem::path("bench") / ("bench-" + lab + ".json");
    nlohmann::json rows = nlohmann::json::array();
    for (auto& r : s.rows) rows.push_back(gpu::bench_row_json(r, s.peaks));
    write_result(path, {{"device", job_->device_facts()},
                        {"saxpy_gbps", s.saxpy_gbps},
                        {"peaks", gpu::to_json(s.peaks)},
                        {"quick", quick_},
                        {"cancelled", s.cancelled},
                        {"labs", {{lab, rows}}}});
  }
  file_ = std::filesystem::absolute(path).string();
  if (!s.error.empty()) session.error = "benchmark failed: " + s.error;
  std::printf("window: %s finished at frame %llu, %zu %s in %.1f s%s\n", job_->is_sweep() ? "sweep" : "bench",
              (unsigned long long)frame, count, job_->is_sweep() ? "points" : "rows", job_->elapsed_s(),
              s.cancelled ? " (cancelled)" : "");
  if (validate)
    std::fprintf(stderr, "vklab: validation (bench): %llu messages\n", (unsigned long long)s.validation_messages);
}
