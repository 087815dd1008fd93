// Headless: step a lab, draw it into an offscreen target, write PNG / .npy. No window,
// no display; what tests, scripted captures and the GPU machine use.
#include "presets.h"
#include "modes.h"
#include "io/npy.h"

#include <cstdio>
#include <fstream>

namespace {
// Long runs are cut into submissions of bounded size so no single one runs long enough
// to trip a driver watchdog (seed 003, ch. 4).
constexpr uint64_t kStepsPerSubmit = 256;
const float kBackground[4] = {0.09f, 0.09f, 0.11f, 1.0f};
}  // namespace

std::unique_ptr<Lab> lab_from_options(const Options& o, const std::string& name) {
  auto lab = make_lab(name);
  if (!o.preset.empty()) apply_preset(find_preset(o.preset), lab->params());
  for (auto& s : o.sets) lab->params().set_assignment(s);
  return lab;
}

nlohmann::json device_json(const gpu::Context& ctx) {
  return {{"name", ctx.info.name},
          {"type", ctx.info.type},
          {"driver", ctx.info.driver},
          {"vulkan", ctx.info.api},
          {"subgroup_size", ctx.info.subgroup_size},
          {"device_local_mib", ctx.info.device_local_mib}};
}

// Long: the headless run in the order it happens (steps, picture, report, capture, dump).
int run_headless(const Options& o) {
  auto checked = lab_from_options(o, o.lab);  // bad parameters fail before any GPU work
  gpu::Context ctx(context_options(o));
  auto lab = std::move(checked);  // declared after ctx: its GPU state goes first
  lab->build(ctx);
  gpu::Profiler prof(ctx);
  std::vector<gpu::PassTiming> totals;
  auto add = [&](const std::vector<gpu::PassTiming>& frame) {
    for (auto& t : frame) {
      auto it = std::find_if(totals.begin(), totals.end(), [&](auto& x) { return x.name == t.name; });
      if (it == totals.end())
        totals.push_back(t);
      else
        it->count += t.count, it->ms += t.ms, it->bytes += t.bytes, it->flops += t.flops;
    }
  };
  // One submission a "frame" of the lab's steps_per_frame, as the window would run it
  // (labs such as CG look at the last frame's results before recording the next).
  const uint64_t chunk = std::clamp<uint64_t>(lab->steps_per_frame(), 1, kStepsPerSubmit);
  std::string stopped;  // the lab's watchdog: a simulation that blew up ends the run (exit 3)
  for (uint64_t done = 0; done < o.steps && stopped.empty();) {
    auto n = uint32_t(std::min(chunk, o.steps - done));
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab->step(cmd, prof, n);
    });
    add(prof.resolve());
    done += n;
    stopped = lab->problem();
  }
  render::OffscreenTarget target(ctx, o.width, o.height);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    render::begin_rendering(cmd, target.frame(), kBackground);
    lab->draw(cmd, prof, target.frame());
    render::end_rendering(cmd);
  });
  add(prof.resolve());

  std::printf("%s on %s: %llu steps\n", lab->name().c_str(), ctx.info.name.c_str(),
              (unsigned long long)lab->steps_done());
  if (!prof.supported()) std::printf("  %s\n", prof.unsupported_reason());
  for (auto& t : totals)
    std::printf("  %-20s x%-6u %10.3f ms  %8.2f GB/s  %8.2f GFLOP/s\n", t.name.c_str(), t.count, t.ms, t.gbps(),
                t.gflops());
  if (!o.capture.empty()) {
    render::write_png(o.capture, o.width, o.height, target.read_rgba());
    std::printf("captured %s\n", o.capture.c_str());
  }
  if (!o.dump.empty()) {
    std::filesystem::create_directories(o.dump);
    nlohmann::json j = {{"lab", lab->name()}, {"params", lab->params().to_json()}, {"device", device_json(ctx)}};
    j["state"] = lab->dump(o.dump);
    std::ofstream(std::filesystem::path(o.dump) / "params.json")
        << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    std::printf("dumped %s/\n", o.dump.c_str());
  }
  report_validation(o, ctx);
  if (!stopped.empty()) {
    std::fprintf(stderr, "vklab: stopped: %s\n", stopped.c_str());
    return 3;
  }
  return 0;
}
