// A lab at work on a device: the context, the lab, its profiler, legend and step-back history,
// the one recipe that records a frame, and the changes that must leave the lab whole when they
// fail (a rebuild, another lab, a preset). The window, headless runs and the bench each drive
// one; the window's tabs read it and ask it for changes.
#pragma once
#include "app/core/cli.h"
#include "app/core/history.h"
#include "app/core/lab.h"
#include "app/core/presets.h"

#include "compute/gpu/context.h"
#include "compute/gpu/profiler.h"
#include "compute/measure/roofline.h"
#include "render/legend.h"
#include "render/target.h"

#include <deque>
#include <exception>
#include <memory>
#include <string>

class Session;

// The transport: running, paused, or single steps asked for while paused.
struct Transport {
  bool paused = false;
  uint32_t step_requests = 0;  // S, Right, Step since the last frame
  // Asked by the bar, which is drawn after the frame's steps are recorded: applied by apply()
  // before the next frame's steps, so the picture and the bar always say the same step.
  bool restart_asked = false;
  int64_t go_back_asked = -1;  // a step-back snapshot, or -1
  void toggle() { paused = !paused; }
  void step() { paused = true, ++step_requests; }
  void apply(Session& s);
};

class Session {
 public:
  struct Parts {
    bool legend = true;    // the picture's legend (render/legend.h)
    bool history = false;  // step back (the window's)
    bool build = true;     // false: the lab stays unbuilt (a bench makes its own sized instances)
  };
  // Makes the context, then builds `lab` on it (its memory counted under its name).
  Session(const gpu::ContextOptions& co, std::unique_ptr<Lab> lab, Parts parts);
  ~Session() { close(); }
  // The lab and the GPU objects made on the context go; the context stays (for its count of
  // validation messages). Nothing may be recorded after.
  void close();

  gpu::Context& ctx() { return *ctx_; }
  const gpu::Context& ctx() const { return *ctx_; }
  Lab& lab() { return *lab_; }
  const Lab& lab() const { return *lab_; }
  gpu::Profiler& profiler() { return *prof_; }
  render::LegendView* legend() { return legend_.get(); }
  History* history() { return history_.get(); }
  Transport transport;
  gpu::Peaks peaks;  // the device's roofs where known (cached or measured)

  // The frame recipe, in the order it is recorded into one command buffer:
  // the profiler's frame, `steps` steps of the lab (and a step-back snapshot) ...
  void record_steps(VkCommandBuffer cmd, uint32_t steps);
  // ... then the picture: the lab's compute for it, its drawing over the background, the
  // legend at `legend_scale` (0: none) in its band beside or under the drawing.
  void record_picture(VkCommandBuffer cmd, const render::Frame& frame, float legend_scale);
  // `frame` with its area cut to where the lab draws (the legend's band left out): what the
  // lab's pointer and the inspector's cells are relative to.
  render::Frame lab_frame(const render::Frame& frame, float legend_scale) const;
  // After the frame's fence: its timings; and a watchdog's stop, said once and pausing the
  // transport (returns it when it is new, else "").
  std::string collect_frame();
  const std::vector<gpu::PassTiming>& timings() const { return timings_; }
  const std::vector<gpu::PassSpan>& spans() const { return spans_; }
  const std::deque<float>& gpu_ms_history() const { return gpu_ms_history_; }
  const std::string& problem() const { return said_problem_; }

  // Changes with the strong guarantee: on failure the lab and its state stay as they were and
  // error() says why. The GPU is waited idle first.
  void apply_rebuild();  // the lab's parameters changed
  // apply_rebuild in two halves, for a build on a worker thread (app/window/build_job.h):
  // the build itself (throws as Lab::build does), then, back on the window's thread, what
  // follows it, given what the build threw (nullptr: nothing).
  void build_for_rebuild(BuildProgress* progress);
  void finish_rebuild(std::exception_ptr failed);
  // A session made with Parts::build false: builds its lab now (throws as Lab::build does).
  void build_unbuilt(BuildProgress* progress);
  void switch_lab(const std::string& name);
  void load_preset(const Preset& p);  // switches labs if it is another's
  void restart();
  void go_back_to(size_t snapshot);  // step back
  // The message a panel shows until dismissed.
  std::string error;
  std::string preset_message;

  // What a capture carries (its PNG's "vklab" text): lab, parameters, device, step, version;
  // a preset, so --preset shot.png replays it.
  std::string manifest() const;
  nlohmann::json device_json() const;
  // After a GPU failure: the lab's parameters, as a preset (--preset FILE resumes them), with
  // the steps done, in ./vklab-rescued-<lab>.json. Returns the file ("" if it could not be written).
  std::string rescue(const std::string& why) const;

 private:
  void build(Lab& lab, BuildProgress* progress = nullptr);
  std::unique_ptr<gpu::Context> ctx_;
  std::unique_ptr<gpu::Profiler> prof_;
  std::unique_ptr<History> history_;
  std::unique_ptr<render::LegendView> legend_;
  std::unique_ptr<Lab> lab_;
  std::vector<Param> params_before_;  // restored when a rebuild fails
  std::vector<gpu::PassTiming> timings_;
  std::vector<gpu::PassSpan> spans_;
  std::deque<float> gpu_ms_history_;
  std::string said_problem_;
  bool restart_pending_ = false;  // a preset was loaded: the rebuild restarts the lab
};

nlohmann::json device_json(const gpu::Context& ctx);
std::string capture_manifest(const Lab& lab, const gpu::Context& ctx);
// ./vklab-rescued-<lab>.json: the lab's parameters as a preset, its steps done and the device
// (if known), after a GPU failure. Returns the file ("" if it could not be written).
std::string rescue_preset(const Lab& lab, const std::string& why, const nlohmann::json& device = {});
// A lab made from the options (--lab, --preset, --set); ParamError on a bad name or value.
std::unique_ptr<Lab> lab_from_options(const Options& o, const std::string& name);
// The device, validation and memory the options ask for (--device, --validate, --memory).
gpu::ContextOptions context_options(const Options& o);
// Prints "vklab: validation: N messages" when --validate was given.
void report_validation(const Options& o, const gpu::Context& ctx);
