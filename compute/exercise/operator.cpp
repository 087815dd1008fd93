// The operators' list and the helpers they share (operator.h).
#include "compute/exercise/operator.h"

#include "compute/gpu/profiler.h"
#include "compute/gpu/resources.h"

#include <bit>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

namespace exercise {

namespace {

const std::vector<std::unique_ptr<Operator>>& all() {
  static const std::vector<std::unique_ptr<Operator>> ops = [] {
    std::vector<std::unique_ptr<Operator>> v;
#define VKLAB_EXERCISE_LAB(lab) \
  for (auto& op : lab##_operators()) v.push_back(std::move(op));
#include "exercise_labs.inc"
#undef VKLAB_EXERCISE_LAB
    return v;
  }();
  return ops;
}

}  // namespace

const Operator& find_operator(const std::string& id) {
  for (auto& op : all())
    if (op->id() == id) return *op;
  std::string known;
  for (auto& op : all()) known += (known.empty() ? "" : ", ") + op->id();
  throw std::invalid_argument("unknown operator '" + id + "' (operators: " + known + ")");
}

std::vector<std::string> operator_ids() {
  std::vector<std::string> ids;
  for (auto& op : all()) ids.push_back(op->id());
  return ids;
}

std::vector<uint32_t> words_of(const std::vector<float>& v) {
  std::vector<uint32_t> w(v.size());
  for (size_t i = 0; i < v.size(); ++i) w[i] = std::bit_cast<uint32_t>(v[i]);
  return w;
}

std::vector<float> floats_of(const std::vector<uint32_t>& w) {
  std::vector<float> v(w.size());
  for (size_t i = 0; i < w.size(); ++i) v[i] = std::bit_cast<float>(w[i]);
  return v;
}

float word_float(uint32_t w) { return std::bit_cast<float>(w); }

std::vector<float> random_inputs(size_t n, float lo, float hi, uint32_t seed, float gap) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) {
    do x = u(rng);
    while (std::fabs(x) < gap);
  }
  return v;
}

double timed_submit(gpu::Context& ctx, const std::function<void(VkCommandBuffer)>& record) {
  gpu::Profiler prof(ctx, 2);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    uint32_t scope = prof.begin(cmd, "run", 0, 0);
    record(cmd);
    prof.end(cmd, scope);
  });
  auto t = prof.resolve();
  return t.empty() ? 0.0 : t[0].ms;
}

gpu::Buffer buffer_of(gpu::Context& ctx, const std::vector<uint32_t>& words) {
  gpu::Buffer b(
      ctx, std::max<size_t>(words.size(), 1) * 4,
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  if (!words.empty()) b.upload(words);
  return b;
}

ShippedRun run_shipped_spirv(gpu::Context& ctx, const std::string& spv, const Problem& p,
                             const std::vector<int32_t>& spec) {
  auto pipeline = gpu::make_compute(ctx, gpu::load_spirv(ctx, spv), uint32_t(p.push.size()), spec, spv);
  std::vector<gpu::Buffer> buffers;
  std::vector<gpu::Bind> binds;
  for (auto& a : p.arrays) buffers.push_back(buffer_of(ctx, a.words));
  for (auto& b : buffers) binds.push_back(gpu::storage_buffer(b));
  ShippedRun run;
  run.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
    pipeline.bind(cmd, binds, p.push.data(), uint32_t(p.push.size()));
    pipeline.dispatch(cmd, p.invocations.x, p.invocations.y, p.invocations.z);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
  });
  run.words.resize(p.arrays.size());
  for (size_t i = 0; i < p.arrays.size(); ++i)
    if (p.arrays[i].output()) {
      run.words[i].resize(p.arrays[i].words.size());
      buffers[i].download(run.words[i].data(), run.words[i].size() * 4);
    }
  return run;
}

std::string element_text(const Array& a, size_t element) {
  std::ostringstream s;
  s.precision(9);
  auto word = [&](size_t k) {
    uint32_t w = a.words[element * a.components + k];
    switch (a.elem) {
      case Elem::F32:
        s << word_float(w);
        break;
      case Elem::U32:
        s << w;
        break;
      case Elem::I32:
        s << int32_t(w);
        break;
      case Elem::HeightKey:
        s << word_float((w & 0x80000000u) ? w & 0x7fffffffu : ~w);
        break;
    }
  };
  s << a.name << "[" << element << "] = ";
  if (a.components > 1) s << "(";
  for (uint32_t k = 0; k < a.components; ++k) {
    if (k) s << ", ";
    word(k);
  }
  if (a.components > 1) s << ")";
  return s.str();
}

}  // namespace exercise
