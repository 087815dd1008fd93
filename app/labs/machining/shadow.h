// The machining lab's second run, for the viewer's comparisons (Abecassis 2012, SIMSURF §15.4.2
// and ch. 16): the lab's path milled again in the other precision, or by another engine, from the
// same start, kept level with the lab's run a bounded number of positions a frame.
#pragma once
#include "compute/machining/zbuffer.h"

#include <memory>
#include <string>
#include <vector>

class ShadowRun {
 public:
  // kind: "precision" (the other precision than `main`'s; needs 64-bit atomics) or an engine name.
  ShadowRun(gpu::Context& ctx, const machining::Machine& main, const std::string& kind,
            const std::vector<float>& start);
  const std::string& kind() const { return kind_; }
  size_t done() const { return done_; }
  // Mills on towards position `target`, at most `budget` positions this call, with the lab's
  // brin-triangle test and frame (so that the single - double map compares like with like).
  void step(VkCommandBuffer cmd, size_t target, size_t budget, machining::HitTest test, machining::Frame frame);
  // The heights (the CPU engine's after its last step; the GPU's with the GPU idle).
  std::vector<double> heights() const;
  bool f64() const { return machine_->stock().f64; }

 private:
  std::string kind_;
  machining::Engine engine_;
  std::unique_ptr<machining::Machine> machine_;
  std::vector<float> host_;  // the CPU engine's heights
  size_t done_ = 0;
};
