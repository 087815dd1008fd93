// Headless: step a lab, draw it into an offscreen target, write PNG / .npy. No window,
// no display; what tests, scripted captures and the GPU machine use.
#include "app/core/figures.h"
#include "app/core/presets.h"
#include "app/core/session.h"
#include "app/modes/modes.h"
#include "app/widgets/plot_files.h"
#include "compute/io/interrupt.h"
#include "compute/io/npy.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"
#include "compute/measure/kernel_statistics.h"
#include "render/recorder.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {
// Long runs are cut into submissions of bounded size so no single one runs long enough
// to trip a driver watchdog (SIMSURF 2012, ch. 4).
constexpr uint64_t kStepsPerSubmit = 256;
}  // namespace

static int run(const Options& o, Session& s);

int run_headless(const Options& o) {
  auto checked = lab_from_options(o, o.lab);  // bad parameters fail before any GPU work
  std::unique_ptr<Session> s;
  try {
    s = std::make_unique<Session>(context_options(o), std::move(checked), Session::Parts{o.legend, false});
    return run(o, *s);
  } catch (const gpu::GpuFailure& e) {
    // One line, the parameters saved, and out at once: the GPU may never finish the work, so
    // nothing waits for it (the driver ends it with the process). A failure while the lab is
    // built saves the parameters it was built from.
    std::fprintf(stderr, "vklab: GPU failure: %s\n", e.what());
    std::string file = s ? s->rescue(e.what()) : rescue_preset(*lab_from_options(o, o.lab), e.what());
    if (!file.empty())
      std::fprintf(stderr, "vklab: the run's parameters are in %s (--preset %s runs it again)\n", file.c_str(),
                   file.c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(4);  // s is left to the process's end
  }
}

// The headless run in the order it happens: steps, picture, report, capture, plots, dump.
static int run(const Options& o, Session& s) {
  if (s.ctx().portability)  // said once, before the lab's lines (docs/MACOS.md)
    std::fprintf(stderr,
                 "vklab: the device as on a Mac (MoltenVK): no fp64 in shaders, no 64-bit atomics; what "
                 "needs them is left out or refused\n");
  gpu::Context& ctx = s.ctx();
  Lab& lab = s.lab();
  ctx.renderdoc.pending = o.renderdoc_captures;
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
  uint64_t steps = o.steps;
  if (steps > 0 && !lab.steps()) {
    std::fprintf(stderr, "vklab: the %s lab has no steps (its work is done when it is built): --steps ignored\n",
                 lab.name().c_str());
    steps = 0;
  }
  if (steps > 0 && lab.steps_per_frame() == 0)  // the window's pause, which headless would keep forever
    throw ParamError("the " + lab.name() + " lab is set to make 0 steps a frame (which pauses it): a headless run of " +
                     std::to_string(steps) + " steps would never end; set that parameter to 1 or more");
  const uint64_t chunk = std::clamp<uint64_t>(lab.steps_per_frame(), 1, kStepsPerSubmit);
  std::string stopped;  // the lab's watchdog: a simulation that blew up ends the run (exit 3)
  render::OffscreenTarget target(ctx, o.width, o.height);
  const float legend_scale = std::max(1.0f, float(o.height) / 400.0f);  // 14-pixel letters at 800 high
  auto draw = [&]() {
    ctx.submit_now([&](VkCommandBuffer cmd) {
      s.profiler().begin_frame(cmd);
      s.record_picture(cmd, target.frame(), legend_scale);
    });
    s.collect_frame();
    add(s.timings());
  };
  // Watched from before the recording's file exists: a Ctrl-C from then on finishes it.
  io::InterruptWatch watch;  // Ctrl-C or SIGTERM: the steps end, the recording is finished (interrupt.h)
  // --record: the picture after every submission (a frame as the window would show it)
  std::unique_ptr<render::Recorder> recorder;
  const uint64_t frames = (steps + chunk - 1) / chunk;
  if (!o.record.empty())
    recorder = std::make_unique<render::Recorder>(platform::utf8_path(o.record), o.width, o.height, o.record_fps);
  auto record = [&]() {
    draw();
    auto rgba = target.read_rgba();
    recorder->add(rgba.data(), o.width, recorder->video() ? "" : s.manifest());
    uint64_t k = recorder->frames();
    if (k == frames || k % std::max<uint64_t>(1, frames / 10) == 0)
      std::fprintf(stderr, "vklab: recording %s: frame %llu of %llu\n", o.record.c_str(), (unsigned long long)k,
                   (unsigned long long)frames);
  };
  uint64_t done = 0;
  // A recording holds at least its first frame, even when asked to stop before it.
  for (; done < steps && stopped.empty() && (!io::interrupted() || (recorder && done == 0));) {
    auto n = uint32_t(std::min(chunk, steps - done));
    bool captured = ctx.renderdoc.begin(ctx.instance, lab.name() + " steps " + std::to_string(done + 1) + "-" +
                                                          std::to_string(done + n));  // --renderdoc-capture
    ctx.submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, n); });
    if (captured) ctx.renderdoc.end(ctx.instance);
    auto said = s.collect_frame();
    if (stopped.empty()) stopped = said;
    add(s.timings());
    done += n;
    if (recorder) record();
  }
  if (ctx.renderdoc.pending > 0 && gpu::RenderDoc::get().attached())
    std::fprintf(stderr, "vklab: renderdoc: %d capture(s) not made: the run ended first\n", ctx.renderdoc.pending);
  if (recorder) {
    recorder->finish();
    std::printf("recorded %s: %llu frames of %ux%u at %d a second%s%s\n", o.record.c_str(),
                (unsigned long long)recorder->frames(), recorder->width(), recorder->height(), o.record_fps,
                recorder->video() ? ", " : "", recorder->encoder().c_str());
  }
  if (int sig = io::interrupted()) {  // what was asked after the steps is not made: the files there stay as they were
    std::fprintf(stderr, "vklab: interrupted by %s after %llu of %llu steps%s\n", io::signal_name(sig),
                 (unsigned long long)done, (unsigned long long)steps,
                 recorder ? "; the recording is complete up to there" : "");
    std::fflush(stdout);
    return 128 + sig;
  }
  draw();

  std::printf("%s on %s: %llu steps", lab.name().c_str(), ctx.info.name.c_str(), (unsigned long long)lab.steps_done());
  if (stopped.empty() && lab.steps_done() < steps)  // the count says why it is not --steps
    std::printf(" of %llu asked: %s", (unsigned long long)steps, lab.fewer_steps_reason().c_str());
  std::printf("\n");
  if (!s.profiler().supported()) std::printf("  %s\n", s.profiler().unsupported_reason());
  for (auto& t : totals)
    std::printf("  %-20s x%-6u %10.3f ms  %s GB/s  %s GFLOP/s\n", t.name.c_str(), t.count, t.ms,
                right(figure(t.gbps(), "%.2f"), 8).c_str(), right(figure(t.gflops(), "%.2f"), 8).c_str());
  if (auto note = lab.timings_note(); !note.empty())  // a line or more, under the passes
    for (size_t at = 0, end; at < note.size(); at = end + 1) {
      end = std::min(note.find('\n', at), note.size());
      std::printf("  %s\n", note.substr(at, end - at).c_str());
    }
  std::printf("%s", lab.headless_report().c_str());
  std::vector<gpu::KernelReport> kernels;  // --occupancy: the run's kernels, for the report and the dump
  if (o.occupancy) {
    kernels = gpu::kernel_statistics(ctx);
    std::printf("%s", gpu::format_kernel_statistics(ctx, kernels).c_str());
  }
  if (!o.capture.empty()) {
    render::write_png(platform::utf8_path(o.capture), o.width, o.height, target.read_rgba(), s.manifest());
    std::printf("captured %s\n", o.capture.c_str());
  }
  if (!o.plots.empty()) {  // --plot NAME=FILE.png: the lab's plots and tables as pictures of their own
    render::LegendView view(ctx);
    auto plots = lab.plots();
    auto tables = lab.tables();
    for (auto& [name, file] : o.plots) {
      auto it = std::find_if(plots.begin(), plots.end(), [&](auto& p) { return p.spec.name == name; });
      auto table = std::find_if(tables.begin(), tables.end(), [&](auto& t) { return t.name == name; });
      if (it != plots.end()) {
        write_plot_files(ctx, view, *it, lab.legend_title(), o.width, o.height, file);
      } else if (table != tables.end()) {
        write_table_files(ctx, view, *table, o.height, file);
      } else {
        std::string known;
        for (auto& p : plots) known += (known.empty() ? "" : ", ") + p.spec.name;
        for (auto& t : tables) known += (known.empty() ? "" : ", ") + t.name;
        throw ParamError("--plot: the " + lab.name() + " lab has no plot or table '" + name + "' after this run (" +
                         (known.empty() ? "it has none" : "it has: " + known) + ")");
      }
      std::printf("plotted %s: %s and its .csv\n", name.c_str(), file.c_str());
    }
  }
  if (!o.dump.empty()) {  // the folder whole or not at all: written aside, then swapped in (output.h)
    io::OutputFolder folder(platform::utf8_path(o.dump));
    nlohmann::json j = {{"lab", lab.name()}, {"params", lab.params().to_json()}, {"device", s.device_json()}};
    j["state"] = lab.dump(folder.folder());
    if (o.occupancy) j["kernels"] = gpu::kernel_statistics_json(ctx, kernels);
    io::write_file(folder.folder() / "params.json",
                   j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    folder.commit();
    std::printf("dumped %s/\n", o.dump.c_str());
  }
  s.close();
  report_validation(o, ctx);
  if (int sig = io::interrupted()) {  // after the steps: what was being written is finished, and said
    std::fprintf(stderr, "vklab: interrupted by %s after the steps; the files written are whole\n",
                 io::signal_name(sig));
    return 128 + sig;
  }
  if (!stopped.empty()) {
    std::fprintf(stderr, "vklab: stopped: %s\n", stopped.c_str());
    return 3;
  }
  return 0;
}
