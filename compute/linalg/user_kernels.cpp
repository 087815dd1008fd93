// The linear algebra lab on the user's kernels of its exercises (Lab::use_kernel, app/labs/linalg/):
// a kernel the checker ran on buffers of its own (compute/linalg/exercise.cpp) here runs on the
// workload's vectors, with the checker's bindings and push constants. The buffer layout's
// vectors are the exercises' float arrays (n values, n a multiple of 4 here: no padding in
// between), the banded matrix's diagonals one after the other (DIAGS[d·n + i]) with their
// int offsets; the texture layout's images are not storage buffers, so it is refused.
#include "compute/exercise/user_kernel.h"
#include "compute/linalg/workload.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace linalg {

namespace {

// The exercises' push blocks (the checker pushes the same).
struct UserAxpbyPush {
  uint32_t n;
  float a, b;
};
struct UserBandedPush {
  uint32_t n, count;
};

// The operator each exercise's kernel computes, and the push block's size.
struct UserOp {
  Op op;
  uint32_t push_bytes;
};
const std::map<std::string, UserOp>& user_ops() {
  static const std::map<std::string, UserOp> ops = {{"linalg.axpby", {Op::Axpby, sizeof(UserAxpbyPush)}},
                                                    {"linalg.banded", {Op::Banded, sizeof(UserBandedPush)}},
                                                    {"linalg.dot", {Op::Dot, sizeof(uint32_t)}},
                                                    {"linalg.cg-update", {Op::Cg, sizeof(uint32_t)}}};
  return ops;
}

// Every write before it done and visible to everything after it (the user's kernel is outside
// Ops, whose operators put their own barrier first).
void user_kernel_barrier(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

uint32_t user_groups(uint32_t n, const exercise::UserKernel& k) {
  uint32_t local = std::max(1u, k.local_size().x);
  return uint32_t((uint64_t(n) + local - 1) / local);
}

}  // namespace

bool Workload::user_op(const std::string& op) { return user_ops().count(op) > 0; }

std::string Workload::user_kernel_unfit(const std::string& op, const exercise::UserKernel& k) const {
  auto it = user_ops().find(op);
  if (it == user_ops().end()) return "'" + op + "' is not one of the linear algebra lab's exercises";
  const Op want = it->second.op;
  const std::string& name = op_names()[size_t(want)];
  if (config_.op != want)
    return "the lab runs operator=" + op_names()[size_t(config_.op)] + ", your kernel is " + name +
           "'s (set operator=" + name + ")";
  if (config_.layout != Layout::Buffer)
    return "your kernel reads storage buffers and the lab's vectors are textures (set layout=buffer)";
  if (want != Op::Axpby && config_.variant != Variant::Modern)  // axpby is one pass in both
    return want == Op::Cg ? "the thesis variant updates x and r by two axpbys, not a fused update (set variant=modern)"
                          : "the thesis variant runs " + name + " in passes, your kernel in one (set variant=modern)";
  if (want == Op::Cg && config_.cg_form != CgForm::Banded)
    return "cg_form=" + cg_form_names()[size_t(config_.cg_form)] +
           " updates x and r inside its one dispatch (set cg_form=banded)";
  if (want == Op::Dot && config_.float_float)
    return "your kernel sums in float, the lab in float-float (set dot_precision=float)";
  uint32_t push = k.interface().push_bytes;
  if (push != 0 && push != it->second.push_bytes)
    return "its push constants are " + std::to_string(push) + " bytes, not the exercise's " +
           std::to_string(it->second.push_bytes);
  // One dispatch along x, an invocation a value.
  uint32_t most = ctx_.props.limits.maxComputeWorkGroupCount[0], local = std::max(1u, k.local_size().x);
  if (user_groups(n_, k) > most) {
    uint32_t side = uint32_t(std::sqrt(double(most) * local / 4));  // n = 4·side² values (CG: a 2·side grid)
    return std::to_string(n_) + " values are more workgroups of " + std::to_string(local) + " than one dispatch has (" +
           std::to_string(most) + ") (set side to " + std::to_string(side) + " or less)";
  }
  return "";
}

void Workload::use_kernel(const std::string& op, const exercise::UserKernel* k) {
  if (!k) {
    user_ = nullptr;
    if (cg_) cg_->use_update(nullptr);
    return;
  }
  std::string unfit = user_kernel_unfit(op, *k);
  if (!unfit.empty()) throw std::invalid_argument("your kernel cannot run here: " + unfit);
  if (config_.op == Op::Cg) cg_->use_update(k);
  if (config_.op == Op::Dot) {
    user_partial_ = gpu::Buffer(ctx_, 4ull * user_groups(n_, *k), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    user_done_ = gpu::Buffer(ctx_, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    user_sum_ = gpu::Buffer(ctx_, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  }
  user_ = k;
}

void Workload::record_user(VkCommandBuffer cmd, gpu::Profiler* prof) {
  const exercise::UserKernel& k = *user_;
  const std::string& name = op_names()[size_t(config_.op)];
  uint32_t scope = prof ? prof->begin(cmd, name + ": your kernel (linalg/" + name + ")", bytes_, flops_) : 0;
  user_kernel_barrier(cmd);
  switch (config_.op) {
    case Op::Axpby: {
      UserAxpbyPush p{.n = n_, .a = 1.5f, .b = -0.5f};  // record()'s 1.5 x - 0.5 y
      k.bind(cmd, {x_->bind(), y_->bind(), out_->bind()}, &p, sizeof p);
      k.dispatch(cmd, n_);
      break;
    }
    case Op::Banded: {
      UserBandedPush p{.n = n_, .count = gpu_banded_->count};
      k.bind(cmd,
             {gpu_banded_->bind_diagonals(), gpu::storage_buffer(gpu_banded_->offset_buffer), x_->bind(), out_->bind()},
             &p, sizeof p);
      k.dispatch(cmd, n_);
      break;
    }
    case Op::Dot: {  // DONE starts at 0; RESULT then goes to the scalar slot the lab reads
      vkCmdFillBuffer(cmd, user_done_.handle(), 0, 4, 0);
      user_kernel_barrier(cmd);
      k.bind(cmd,
             {x_->bind(), y_->bind(), gpu::storage_buffer(user_partial_), gpu::storage_buffer(user_done_),
              gpu::storage_buffer(user_sum_)},
             &n_, sizeof n_);
      k.dispatch(cmd, n_);
      user_kernel_barrier(cmd);
      VkBufferCopy to_slot{0, scalar_slot() * sizeof(float), sizeof(float)};
      vkCmdCopyBuffer(cmd, user_sum_.handle(), ops_->scalars().buffer().handle(), 1, &to_slot);
      break;
    }
    default:
      throw std::logic_error("no user kernel for operator " + name);
  }
  user_kernel_barrier(cmd);
  if (prof) prof->end(cmd, scope);
}

}  // namespace linalg
