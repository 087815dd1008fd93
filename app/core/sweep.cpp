#include "app/core/sweep.h"

#include "compute/measure/bench_row.h"

#include <cmath>
#include <sstream>

std::vector<double> SweepSpec::values() const {
  std::vector<double> v;
  for (int i = 0; i < count; ++i) {
    double t = count > 1 ? double(i) / (count - 1) : 0.0;
    v.push_back(log ? from * std::pow(to / from, t) : from + (to - from) * t);
  }
  return v;
}

SweepSpec parse_sweep(const std::string& text) {
  SweepSpec s;
  auto eq = text.find('=');
  auto bad = [&](const std::string& why) {
    return ParamError("bad sweep '" + text + "': " + why + " (expected NAME=FROM:TO:COUNT[:log], e.g. size=64:512:4)");
  };
  if (eq == std::string::npos || eq == 0) throw bad("no NAME=");
  s.param = text.substr(0, eq);
  std::vector<std::string> parts;
  std::istringstream in(text.substr(eq + 1));
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() == 4 && parts[3] == "log")
    s.log = true;
  else if (parts.size() != 3)
    throw bad("not three fields");
  try {
    size_t used = 0;
    s.from = std::stod(parts[0], &used);
    if (used != parts[0].size()) throw bad("FROM is not a number");
    s.to = std::stod(parts[1], &used);
    if (used != parts[1].size()) throw bad("TO is not a number");
    s.count = std::stoi(parts[2], &used);
    if (used != parts[2].size()) throw bad("COUNT is not an integer");
  } catch (const std::logic_error&) {
    throw bad("not numbers");
  }
  if (!std::isfinite(s.from) || !std::isfinite(s.to)) throw bad("FROM and TO must be finite");
  if (s.count < 2 || s.count > 64) throw bad("COUNT must be 2..64");
  if (s.log && (s.from <= 0 || s.to <= 0)) throw bad("a log sweep needs FROM and TO above 0");
  return s;
}

void check_sweep(const Lab& lab, const SweepSpec& spec) {
  for (auto& p : lab.params().all())
    if (p.name == spec.param) {
      if (p.kind != Param::Kind::Float && p.kind != Param::Kind::Int)
        throw ParamError("cannot sweep '" + spec.param + "': it is not a number");
      if (std::min(spec.from, spec.to) < p.min || std::max(spec.from, spec.to) > p.max)
        throw ParamError("sweep of '" + spec.param + "' leaves its range " + p.text() + " in [" +
                         std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
      return;
    }
  lab.params().get(spec.param);  // throws, naming the known parameters
}

namespace {

// Runs `steps` steps in submissions of at most 16 (none long enough for a watchdog, none past the
// profiler's scopes)
// and returns the summed pass timings.
std::vector<gpu::PassTiming> run_steps(gpu::Context& ctx, gpu::Profiler& prof, Lab& lab, uint64_t steps,
                                       std::string& problem) {
  std::vector<gpu::PassTiming> totals;
  for (uint64_t done = 0; done < steps && problem.empty();) {
    auto n = uint32_t(std::min<uint64_t>(16, steps - done));
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab.step(cmd, prof, n);
    });
    for (auto& t : prof.resolve()) {
      auto it = std::find_if(totals.begin(), totals.end(), [&](auto& x) { return x.name == t.name; });
      if (it == totals.end())
        totals.push_back(t);
      else
        it->ms += t.ms, it->bytes += t.bytes, it->flops += t.flops;
    }
    done += n;
    problem = lab.problem();
  }
  return totals;
}

}  // namespace

std::vector<SweepPoint> run_sweep(gpu::Context& ctx, const Lab& base, const SweepSpec& spec,
                                  const std::function<void(const SweepPoint&)>& on_point,
                                  const std::atomic<bool>* cancel) {
  check_sweep(base, spec);
  gpu::Profiler prof(ctx, 4096);
  std::vector<SweepPoint> points;
  for (double v : spec.values()) {
    auto lab = make_lab(base.name());
    lab->params().all() = base.params().all();
    lab->params().set_value(spec.param, v);
    lab->build(ctx);
    SweepPoint pt;
    pt.value = lab->params().get(spec.param);
    run_steps(ctx, prof, *lab, std::min<uint64_t>(5, spec.steps), pt.problem);  // warm-up
    if (pt.problem.empty()) {
      double ms = 0, bytes = 0, flops = 0;
      for (auto& t : run_steps(ctx, prof, *lab, spec.steps, pt.problem)) ms += t.ms, bytes += t.bytes, flops += t.flops;
      pt.ms_per_step = ms / double(std::max<uint64_t>(1, spec.steps));
      pt.gbps = ms > 0 ? bytes / (ms * 1e6) : 0;
      pt.gflops = ms > 0 ? flops / (ms * 1e6) : 0;
    }
    ctx.wait_idle();
    lab.reset();
    points.push_back(pt);
    if (on_point) on_point(pt);
    if (cancel && cancel->load()) throw gpu::BenchCancelled();
  }
  return points;
}

nlohmann::json sweep_json(const Lab& lab, const SweepSpec& spec, const std::vector<SweepPoint>& points) {
  nlohmann::json j = {{"lab", lab.name()},
                      {"param", spec.param},
                      {"from", spec.from},
                      {"to", spec.to},
                      {"count", spec.count},
                      {"log", spec.log},
                      {"steps", spec.steps},
                      {"params", lab.params().to_json()},
                      {"points", nlohmann::json::array()}};
  for (auto& p : points)
    j["points"].push_back({{"value", p.value},
                           {"ms_per_step", p.ms_per_step},
                           {"gbps", p.gbps},
                           {"gflops", p.gflops},
                           {"problem", p.problem}});
  return j;
}
