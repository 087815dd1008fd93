// The denormal penalty of SIMSURF §14.3.2, on this CPU and on the GPU (denormals.h).
#include "compute/floatlab/denormals.h"

#include "compute/gpu/pipeline.h"
#include "compute/measure/cpu_baselines.h"
#include "compute/measure/timer.h"
#include "shaders/floatlab/floatlab_push.h"

#include <cfloat>
#include <cmath>
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
#define VKLAB_MXCSR 1
#endif

namespace floatlab {

namespace {

constexpr float kNormal = 1e-30f, kSubnormal = 1e-41f;  // y tends to 2d: 2e-30 (normal), 2e-41 (subnormal)

// SSE's DAZ (bit 6) and FTZ (bit 15) for the life of the guard, the old modes put back after.
struct DazFtz {
#ifdef VKLAB_MXCSR
  unsigned old = _mm_getcsr();
  explicit DazFtz(bool on) {
    if (on) _mm_setcsr(old | 0x8040u);
  }
  ~DazFtz() { _mm_setcsr(old); }
#else
  explicit DazFtz(bool) {}
#endif
};

DenormalRow row_of(const std::string& where, bool subnormal, double ms, const std::vector<float>& out,
                   uint64_t operations) {
  DenormalRow r{.where = where, .subnormal = subnormal, .ms = ms, .ns_per_operation = ms * 1e6 / double(operations)};
  r.sample = out.empty() ? 0.0f : out[out.size() / 2];
  r.results_zero = true;
  for (float v : out) {
    if (v != 0.0f) r.results_zero = false;
    if (v != 0.0f && std::fabs(v) < FLT_MIN) r.results_subnormal = true;
  }
  return r;
}

}  // namespace

void denormal_loop_cpu(std::vector<float>& out, uint32_t iterations, float c, float d, bool daz_ftz) {
  DazFtz modes(daz_ftz);
  for (size_t i = 0; i < out.size(); ++i) {
    volatile float start = d * (1.0f + float(i & 7u) * 0.125f);  // read under the modes (DAZ)
    float y = start;
    for (uint32_t k = 0; k < iterations; ++k) y = c * y + d;
    out[i] = y;
  }
}

DenormalPenalty denormal_penalty(gpu::Context& ctx, uint32_t count, uint32_t iterations) {
  DenormalPenalty p{.cpu = gpu::cpu_machine(), .gpu = ctx.info.name, .count = count, .iterations = iterations};
  p.d_normal = kNormal, p.d_subnormal = kSubnormal;
#ifdef VKLAB_MXCSR
  p.daz_ftz = true;
#endif
  const uint64_t operations = 2ull * count * iterations;
  std::vector<float> out(count);
  auto cpu = [&](float d, bool modes) {
    double ms = gpu::median_wall_ms([&] { denormal_loop_cpu(out, iterations, p.c, d, modes); }, 5);
    return row_of(modes ? "CPU, DAZ and FTZ on" : "CPU", d == kSubnormal, ms, out, operations);
  };
  p.rows.push_back(cpu(kNormal, false));
  p.rows.push_back(cpu(kSubnormal, false));
  if (p.daz_ftz) p.rows.push_back(cpu(kSubnormal, true));
  // The GPU: the same loop a value an invocation.
  gpu::Buffer result(ctx, count * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto pipeline = gpu::make_compute(ctx, "floatlab/denormal_loop.comp", sizeof(push::DenormalLoopPush));
  for (float d : {kNormal, kSubnormal}) {
    auto t = gpu::time_gpu(
        ctx,
        [&](VkCommandBuffer cmd) {
          pipeline.bind(cmd, {gpu::storage_buffer(result)},
                        push::DenormalLoopPush{.n = count, .iterations = iterations, .c = p.c, .d = d});
          vkCmdDispatch(cmd, pipeline.groups(count).x, 1, 1);
        },
        9, 20);
    ctx.submit_now([&](VkCommandBuffer cmd) {
      pipeline.bind(cmd, {gpu::storage_buffer(result)},
                    push::DenormalLoopPush{.n = count, .iterations = iterations, .c = p.c, .d = d});
      vkCmdDispatch(cmd, pipeline.groups(count).x, 1, 1);
    });
    p.rows.push_back(row_of("GPU", d == kSubnormal, t.median_ms, result.download<float>(), operations));
  }
  // Each row against its place's normal loop.
  for (auto& r : p.rows)
    for (auto& base : p.rows)
      if (!base.subnormal && (base.where == "GPU") == (r.where == "GPU")) r.over_normal = r.ms / base.ms;
  return p;
}

}  // namespace floatlab
