// The warmed-up GPU timer and the medians (timer.h).
#include "compute/measure/timer.h"

#include "compute/gpu/profiler.h"
#include "shaders/common/gpu_push.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gpu {

double median_wall_ms(const std::function<void()>& run, int repeats, double budget_ms) {
  std::vector<double> ms;
  double spent = 0;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    spent += ms.back();
    if (spent >= budget_ms) break;
    if (ms.size() >= 3) {  // the last three within 2 % of their middle
      std::vector<double> last(ms.end() - 3, ms.end());
      std::sort(last.begin(), last.end());
      if (last[2] - last[0] <= 0.02 * last[1]) break;
    }
  }
  return median(ms);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// The warm-up (timer.h and docs/PERF.md's allocation experiment say why), then the timed
// runs.
GpuTiming time_gpu(Context& ctx, const std::function<void(VkCommandBuffer)>& record, int repeats, double warmup_ms) {
  GpuTiming out;
  Profiler prof(ctx, 4);
  if (!prof.supported()) return out;
  struct ClockProbe {
    Pipeline pipeline;
    Buffer out;
  };
  if (!ctx.clock_probe)
    ctx.clock_probe =
        std::make_shared<ClockProbe>(ClockProbe{make_compute(ctx, "gpu/clock_probe.comp", sizeof(push::ClockProbePush)),
                                                Buffer(ctx, 64 * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)});
  auto& probe = *static_cast<ClockProbe*>(ctx.clock_probe.get());
  // `count` applications in one submission, then (with probe_ms) the clock probe after them.
  auto timed = [&](int count, double* probe_ms) {
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      {
        Profiler::Scope s(prof, cmd, "run", 0, 0);
        for (int i = 0; i < count; ++i) record(cmd);
      }
      if (probe_ms) {
        Profiler::Scope s(prof, cmd, "clock probe", 0, 0);
        probe.pipeline.bind(cmd, {storage_buffer(probe.out)}, push::ClockProbePush{.iterations = 20000});
        vkCmdDispatch(cmd, 1, 1, 1);
      }
    });
    auto t = prof.resolve();
    if (probe_ms) *probe_ms = t.size() > 1 ? t[1].ms : 0;
    return t.empty() ? 0.0 : t[0].ms;
  };
  // Warm-up: batches grow until one lasts ~10 ms; they go on until the time per application
  // has settled (two batches within 2 %), warmup_ms has passed and the clock probe is back
  // within 3 % of the fastest this device has shown. A GPU left idle (while the CPU made data
  // or timed its reference) comes back through slower clock steps that last a second or two,
  // on which the time per application also looks settled. The first warm-up on a device
  // lasts 15 x warmup_ms, for the probe to see the top clock, and at most 25 x warmup_ms; the
  // others at most 5 x warmup_ms (a longer wait only added seconds to rows too small to keep the
  // GPU busy, whose clock may not come to its top at all; rows that keep it busy reach it within
  // a few hundred ms: docs/PERF.md). How each warm-up ended is in the timing (GpuTiming::warm_up).
  // A CPU implementation (lavapipe) has no GPU clock to come back: the probe would only time
  // the CPU's scheduling noise, so there the settled time alone ends the warm-up, after 20 ms
  // at least and 100 ms at most (on a loaded CPU two batches rarely agree within 2 %, and a
  // row's warm-up ran to its 5 s cap).
  const bool gpu_clock = ctx.info.type != "cpu";
  if (!gpu_clock) warmup_ms = std::min(warmup_ms, 20.0);
  const double calibrate = ctx.best_clock_probe_ms > 0 || !gpu_clock ? 0 : 15 * warmup_ms, cap = (!gpu_clock      ? 5
                                                                                                  : calibrate > 0 ? 25
                                                                                                                  : 5) *
                                                                                                 warmup_ms;
  // Where recording and submitting cost more than the GPU's work (many small dispatches), the
  // GPU idles between batches (busy under half the wall-clock time) and its clocks may never
  // reach the top: such a warm-up also ends after twice its GPU time and a quarter second more.
  const double wall_cap_ms = 2 * std::max(warmup_ms, calibrate) + 250;
  auto top_clock_now = [&](double probe_ms) { return !gpu_clock || probe_ms <= 1.03 * ctx.best_clock_probe_ms; };
  const auto began = std::chrono::steady_clock::now();
  double busy = 0, last = 0, long_run = 0;
  for (int batch = 1;;) {
    double probe_ms = 0, ms = timed(batch, gpu_clock ? &probe_ms : nullptr);
    if (ms <= 0) break;  // cannot happen with timestamps; guards a broken device
    busy += ms + probe_ms;
    if (probe_ms > 0 && (ctx.best_clock_probe_ms <= 0 || probe_ms < ctx.best_clock_probe_ms))
      ctx.best_clock_probe_ms = probe_ms;
    if (repeats == 1 && batch == 1 && ms >= 1000.0 && top_clock_now(probe_ms)) {
      long_run = ms;
      out.warm_up = {{"ended", "a run of a second or more at the top clock: that run timed"}, {"busy_ms", busy}};
      break;
    }
    double per = ms / batch;
    // Two batches within 2 %, or 5 % once twice the warm-up has passed: the time per application
    // of rows too small to fill the GPU (the diffusion at 256², 3 µs a step) jitters by more than
    // 2 % from batch to batch at the top clock, and their warm-ups ran to the cap.
    const double tolerance = busy >= 2 * std::max(warmup_ms, calibrate) ? 0.05 : 0.02;
    bool settled = last > 0 && std::abs(per - last) <= tolerance * per;
    bool top_clock = top_clock_now(probe_ms);
    double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
    const char* end = busy >= std::max(warmup_ms, calibrate) && settled && top_clock ? "settled at the top clock"
                      : busy >= cap                                                  ? "its cap"
                      : busy < 0.5 * wall && wall >= wall_cap_ms ? "the GPU idle half the wall-clock time"
                                                                 : nullptr;
    if (end) {
      out.warm_up = {{"ended", end},
                     {"busy_ms", busy},
                     {"wall_ms", wall},
                     {"batches_of", batch},
                     {"settled", settled},
                     {"clock_probe_over_best",
                      gpu_clock && ctx.best_clock_probe_ms > 0 ? probe_ms / ctx.best_clock_probe_ms : 1.0}};
      break;
    }
    last = ms >= 10.0 || batch >= 4096 ? per : 0;  // a batch of the largest count is settled on, however short
    if (ms < 10.0 && batch < 4096) batch *= 2;
  }
  if (ctx.renderdoc.begin(ctx.instance, "one application of a bench row")) {  // --renderdoc-capture
    ctx.submit_now(record);
    ctx.renderdoc.end(ctx.instance);
  }
  std::vector<double> ms;
  if (long_run > 0) ms.push_back(long_run);
  while (int(ms.size()) < repeats) ms.push_back(timed(1, nullptr));
  out.median_ms = median(ms);
  out.min_ms = ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
  out.repeats = repeats;
  return out;
}

}  // namespace gpu
