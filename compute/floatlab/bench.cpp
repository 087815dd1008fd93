#include "bench.h"

#include "floatfloat.h"

namespace floatlab {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{4096} : std::vector<uint32_t>{1u << 16, 1u << 20, 1u << 22};
  const uint32_t reps = options.quick ? 16 : 1024;
  floatlab::FloatFloat ff(ctx);
  BenchRows rows(options);
  for (uint32_t n : sizes)
    for (auto& t : ff.throughput(n, reps, options.quick ? 5 : 200)) {
      BenchRow row;
      row.pass = "ff." + t.op;
      row.size = std::to_string(n) + " x " + std::to_string(reps);
      row.elements = n;
      row.repeats = 5;
      row.median_ms = t.median_ms;
      row.min_ms = t.median_ms;
      row.bytes = 16.0 * n;          // one load, one store an element: not the limit
      row.flops = double(n) * reps;  // operations (one float-float op counts as one)
      row.reference = {{"relative_to_float_add", t.relative_to_add},
                       {"unit", "time of one float addition (Da Graça 2006, ch. 4.3.1)"}};
      rows.push_back(row);
    }
  return rows.take();
}

}  // namespace floatlab
