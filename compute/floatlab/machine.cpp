#include "compute/floatlab/machine.h"

#include "shaders/floatlab/floatlab_push.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace floatlab {

namespace {
constexpr uint32_t kWords = Program::kRegisters + Program::kOps;  // vm.glsl's kProgramWords
}  // namespace

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::Compute:
      return "compute";
    case Stage::Vertex:
      return "vertex";
    case Stage::Fragment:
      return "fragment";
    default:
      return "cpu";
  }
}

uint8_t Program::fresh() {
  if (used_ == kRegisters) throw std::logic_error("float machine: a program uses at most 16 registers");
  return used_++;
}

uint8_t Program::in(float v) {
  uint8_t r = fresh();
  reg_[r] = std::bit_cast<uint32_t>(v);
  return r;
}

uint8_t Program::op(VmOp o, uint8_t a, uint8_t b, uint8_t c) {
  if (code_.size() == kOps) throw std::logic_error("float machine: a program has at most 24 operations");
  if (a >= used_ || b >= used_ || c >= used_) throw std::logic_error("float machine: an operand register not yet set");
  uint8_t d = fresh();
  code_.push_back(uint32_t(o) | uint32_t(d) << 6 | uint32_t(a) << 10 | uint32_t(b) << 14 | uint32_t(c) << 18);
  return d;
}

Registers run_cpu(const Program& p, const PowFn& pow) {
  Registers r;
  for (uint32_t i = 0; i < Program::kRegisters; ++i) r[i] = std::bit_cast<float>(p.registers()[i]);
  for (uint32_t w : p.code()) {
    float x = r[(w >> 10) & 15], y = r[(w >> 14) & 15], z = r[(w >> 18) & 15], v = x;
    switch (VmOp(w & 63)) {
      case VmOp::Add:
        v = x + y;
        break;
      case VmOp::Sub:
        v = x - y;
        break;
      case VmOp::Mul:
        v = x * y;
        break;
      case VmOp::Div:
        v = x / y;
        break;
      case VmOp::Sqrt:
        v = std::sqrt(x);
        break;
      case VmOp::Fma:
        v = std::fma(x, y, z);
        break;
      case VmOp::Mad: {
        float t = x * y;
        v = t + z;
        break;
      }
      case VmOp::Neg:
        v = -x;
        break;
      case VmOp::Pow:
        v = pow ? pow(x, y) : float(std::pow(double(x), double(y)));
        break;
      default:
        break;
    }
    r[(w >> 6) & 15] = v;
  }
  return r;
}

FloatMachine::FloatMachine(gpu::Context& ctx) : ctx_(ctx) {
  compute_ = gpu::make_compute(ctx, "floatlab/vm.comp", sizeof(push::FloatVmPush));
  gpu::GraphicsDesc g;
  g.push_bytes = sizeof(push::FloatVmPush);
  g.color_format = VK_FORMAT_UNDEFINED;  // a depth image only: the view's size
  if (ctx.vertex_stores) {
    g.vert = "floatlab/vm.vert";
    g.frag = "floatlab/vm_nothing.frag";
    g.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    vertex_ = gpu::make_graphics(ctx, g);
  }
  if (ctx.fragment_stores) {
    g.vert = "floatlab/vm_fragment.vert";
    g.frag = "floatlab/vm.frag";
    g.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    fragment_ = gpu::make_graphics(ctx, g);
  }
}

bool FloatMachine::has(Stage s) const {
  return s == Stage::Cpu || s == Stage::Compute || (s == Stage::Vertex && vertex_) ||
         (s == Stage::Fragment && fragment_);
}

std::vector<Registers> FloatMachine::run(Stage s, const std::vector<Program>& programs) {
  const uint32_t n = uint32_t(programs.size());
  std::vector<Registers> out(n);
  if (n == 0) return out;
  if (s == Stage::Cpu) {
    for (uint32_t i = 0; i < n; ++i) out[i] = run_cpu(programs[i]);
    return out;
  }
  if (!has(s)) throw std::runtime_error(std::string("this device cannot store from the ") + stage_name(s) + " stage");
  // Programs in chunks whose buffers fit the device's storage-buffer range (llvmpipe's is 128
  // MiB: a million programs make 160 MiB of code), a submission a chunk; the same answers.
  const uint64_t range = ctx_.props.limits.maxStorageBufferRange;
  const uint32_t chunk = uint32_t(std::clamp<uint64_t>(range / (uint64_t(kWords) * 4), 1, 1u << 18));
  if (n > chunk) {
    for (uint32_t first = 0; first < n; first += chunk) {
      uint32_t count = std::min(chunk, n - first);
      auto part = run(s, std::vector<Program>(programs.begin() + first, programs.begin() + first + count));
      std::copy(part.begin(), part.end(), out.begin() + first);
    }
    return out;
  }
  std::vector<uint32_t> words(size_t(n) * kWords, 0);
  for (uint32_t i = 0; i < n; ++i) {
    std::copy(programs[i].registers().begin(), programs[i].registers().end(), words.begin() + size_t(i) * kWords);
    std::copy(programs[i].code().begin(), programs[i].code().end(),
              words.begin() + size_t(i) * kWords + Program::kRegisters);
  }
  // host-visible storage the shaders read and write directly, grown as needed
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  if (!in_ || in_.size() < words.size() * 4) in_ = gpu::Buffer(ctx_, words.size() * 4, usage, true);
  if (!out_ || out_.size() < size_t(n) * 64) out_ = gpu::Buffer(ctx_, size_t(n) * 64, usage, true, true);
  in_.upload(words);
  gpu::Buffer& res = out_;
  const uint32_t width = std::min<uint32_t>(n, 256), height = (n + width - 1) / width;
  if (s != Stage::Compute && (width > depth_w_ || height > depth_h_)) {
    depth_w_ = std::max(width, depth_w_), depth_h_ = std::max(height, depth_h_);
    depth_ = gpu::Image(ctx_, depth_w_, depth_h_, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
  }
  auto record = [&](VkCommandBuffer cmd) { record_stage(cmd, s, n); };
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    // the last run's results were read by the host; this run's programs were written by it
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                 VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    record(cmd);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
  });
  std::vector<uint32_t> bits(size_t(n) * 16);
  res.download(bits.data(), bits.size() * 4);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t k = 0; k < Program::kRegisters; ++k) out[i][k] = std::bit_cast<float>(bits[size_t(i) * 16 + k]);
  return out;
}

void FloatMachine::record_stage(VkCommandBuffer cmd, Stage s, uint32_t n) {
  const uint32_t width = std::min<uint32_t>(n, 256), height = (n + width - 1) / width;
  const push::FloatVmPush push{.count = n, .width = width};
  const gpu::Buffer &in = in_, &res = out_;
  const gpu::Image& depth = depth_;
  {
    if (s == Stage::Compute) {
      compute_.bind(cmd, {gpu::storage_buffer(in), gpu::storage_buffer(res)}, push);
      compute_.dispatch(cmd, n);
      return;
    }
    gpu::begin_depth_pass(cmd, depth, width, height, false);
    const gpu::Pipeline& pipe = s == Stage::Vertex ? vertex_ : fragment_;
    pipe.bind(cmd, {gpu::storage_buffer(in), gpu::storage_buffer(res)}, push);
    vkCmdDraw(cmd, s == Stage::Vertex ? n : 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
  }
}

}  // namespace floatlab
