// The roofline (Williams, Waterman and Patterson 2009): a pass can go no faster than its
// traffic over the device's bandwidth, nor than its arithmetic over the device's peak rate.
// The peaks are measured on the device itself (saxpy and copy bandwidth, fp32 and fp64
// multiply-add rates), once per device and driver, and kept in a cache file; every pass then
// gets its arithmetic intensity, the roof that limits it and how close to that roof it runs.
#pragma once
#include "compute/gpu/context.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

namespace gpu {

struct Peaks {
  std::string device, driver, measured;     // measured: UTC date
  double fp32_gflops = 0, fp64_gflops = 0;  // a multiply-add counts 2 flops; fp64 0: no shaderFloat64
  double saxpy_gbps = 0, copy_gbps = 0;     // the memory roof is saxpy's (what "% saxpy" compares with)
  bool valid() const { return fp32_gflops > 0 && saxpy_gbps > 0; }
};
nlohmann::json to_json(const Peaks& p);
Peaks peaks_from_json(const nlohmann::json& j);

// Measures the four roofs; quick: small sizes and short warm-ups (tests, lavapipe).
Peaks measure_peaks(Context& ctx, bool quick);
// One dispatch of the multiply-add kernel (shaders/gpu/fma_peak.glsl): `groups` workgroups
// of 256 invocations, each 8 x 4 chains of `iterations` (a multiple of 4) fma(v, m, c); every invocation's
// result, for checking against the CPU.
std::vector<double> run_fma_kernel(Context& ctx, bool f64, uint32_t groups, uint32_t iterations, float m, float c);
double fma_kernel_flops(uint32_t groups, uint32_t iterations);

// The cache: a JSON file with one entry per device and driver.
std::optional<Peaks> find_cached_peaks(const std::filesystem::path& file, const DeviceInfo& device);
void store_peaks(const std::filesystem::path& file, const Peaks& peaks);  // replaces this device's entry
// The cached entry for ctx's device, else measured (full sizes) and stored; remeasure: always.
Peaks device_peaks(Context& ctx, const std::filesystem::path& cache, bool remeasure);

// Where a pass sits under the roofline.
struct RooflinePlace {
  double intensity = 0;          // declared flops per declared byte (0: no arithmetic declared)
  double attainable_gflops = 0;  // min(fp32 peak, intensity x memory roof)
  std::string bound;             // "memory" or "fp32": the roof whose time is the longer ("": no place)
  double percent = 0;            // 100 x that roof's time for the pass / its measured time
};
RooflinePlace place(const Peaks& peaks, double bytes, double flops, double ms);
nlohmann::json to_json(const RooflinePlace& r);

}  // namespace gpu
