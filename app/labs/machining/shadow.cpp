#include "app/labs/machining/shadow.h"

#include "compute/machining/analytic.h"
#include "compute/machining/nbuffer.h"

#include <algorithm>

using namespace machining;

ShadowRun::ShadowRun(gpu::Context& ctx, const Machine& main, const std::string& kind, const std::vector<float>& start)
    : kind_(kind) {
  Stock s = main.stock();
  if (kind == "precision") {
    s.f64 = !s.f64;
    engine_ = Engine::Fine;
  } else {
    engine_ = engine_from_name(kind);
    if (engine_ == Engine::Hardware && (s.f64 || main.analytic())) engine_ = Engine::Fine;
    if (s.nbuffer && engine_ != Engine::Cpu) engine_ = Engine::PerBrin;  // the N-buffer's GPU engine
  }
  const auto& a = main.analytic();
  machine_ = std::make_unique<Machine>(ctx, s, main.tool(), main.path(), a ? &*a : nullptr);
  if (engine_ == Engine::Cpu && s.f64) engine_ = Engine::Fine;  // the host copy is single precision
  machine_->set_heights(start.empty() ? starting_values(s) : start);
  if (engine_ == Engine::Cpu) host_ = machine_->heights();
}

void ShadowRun::step(VkCommandBuffer cmd, size_t target, size_t budget, HitTest test, Frame frame) {
  target = std::min(target, machine_->positions());
  if (done_ >= target) return;
  size_t count = std::min(target - done_, budget);
  if (engine_ == Engine::Cpu) {
    const auto& path = machine_->path();
    std::vector<Position> chunk(path.begin() + long(done_), path.begin() + long(done_ + count));
    if (machine_->stock().nbuffer)
      mill_nbuffer_cpu(machine_->stock(), host_, machine_->tool(), chunk);
    else if (machine_->analytic())
      mill_analytic_cpu(machine_->stock(), host_, *machine_->analytic(), chunk);
    else
      mill_cpu(machine_->stock(), host_, machine_->tool(), chunk, 0, test, frame);
  } else {
    machine_->set_hit_test(test);
    machine_->set_frame(frame);
    machine_->record(cmd, engine_, uint32_t(done_), uint32_t(count));
  }
  done_ += count;
}

std::vector<double> ShadowRun::heights() const {
  if (engine_ == Engine::Cpu) return {host_.begin(), host_.end()};
  if (machine_->stock().f64) return machine_->heights64();
  auto h = machine_->heights();
  return {h.begin(), h.end()};
}
