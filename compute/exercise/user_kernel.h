// A compute kernel the user wrote, whole (#version, bindings, main), compiled at run time with
// shaderc and sandboxed: every loop spends from the loop budget (compute/gpu/loop_budget.h), so
// a kernel that never ends is stopped and its line said; the compiler's messages keep the
// user's line numbers. The checker (check.h) runs it on buffers of its own, never the lab's.
#pragma once
#include "compute/gpu/loop_budget.h"
#include "compute/gpu/pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace exercise {

// One compiler message on a line of the user's file (line 0: about the kernel as a whole).
struct LineError {
  int line = 0;
  std::string text;
};

struct CompileOutcome {
  bool ok = false;
  std::string messages;           // every message, lines counted in the user's file
  std::vector<LineError> errors;  // the same, one a message
};

class UserKernel {
 public:
  // The loop budget's status buffer: a binding no exercise uses.
  static constexpr uint32_t kStatusBinding = 15;

  // Compiles `source` (named `name` in messages); nullptr when it does not compile, with
  // `out` saying why on the user's lines. Never throws for what the user wrote.
  static std::unique_ptr<UserKernel> compile(gpu::Context& ctx, const std::string& source, const std::string& name,
                                             CompileOutcome& out);

  const gpu::ShaderInterface& interface() const { return interface_; }
  gpu::Dim3 local_size() const { return pipeline_.local_size(); }
  const gpu::Pipeline& pipeline() const { return pipeline_; }
  const std::string& source() const { return source_; }
  uint32_t budget() const { return budget_; }

  // Binds the kernel: binds[i] to binding i, the status buffer to kStatusBinding, and pushes
  // `push` (the kernel's push block must be push_bytes long, or the kernel reads none).
  void bind(VkCommandBuffer cmd, const std::vector<gpu::Bind>& binds, const void* push, uint32_t push_bytes) const;
  void dispatch(VkCommandBuffer cmd, uint32_t nx, uint32_t ny = 1, uint32_t nz = 1) const {
    pipeline_.dispatch(cmd, nx, ny, nz);
  }
  // What the runs since the last call left in the status buffer (read with those runs done),
  // cleared for the next; and the sentence it makes ("" when all went well).
  gpu::LoopStatus take_status();
  std::string trouble(const gpu::LoopStatus& s) const;

 private:
  UserKernel() = default;
  std::string source_;
  gpu::ShaderInterface interface_;
  gpu::Pipeline pipeline_;
  gpu::Buffer status_;  // host-visible, kLoopStatusBytes
  uint32_t budget_ = 0;
};

// The shader compiled for `source`: its #version and #extension lines first, the loop budget's
// code, the user's text with its loops budgeted (line numbers kept), and a main() that calls
// the user's and then vklab_finish(). Throws std::invalid_argument ("line N: ...") for what the
// budget refuses. For tests and the panel's "show the compiled shader".
std::string sandboxed_source(const std::string& source, uint32_t budget);

}  // namespace exercise
