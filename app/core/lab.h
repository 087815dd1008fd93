// A lab: parameters, GPU state, compute steps, a picture, a panel, a dump and benchmarks.
// Its math and benchmark rows live in compute/<lab>/, its picture in render/<lab>/, and this
// object (app/labs/<lab>/) holds the knobs.
#pragma once
#include "app/core/build_progress.h"
#include "app/core/params.h"
#include "app/core/registry.h"
#include "app/widgets/plot.h"
#include "app/widgets/table.h"

#include "compute/gpu/profiler.h"
#include "compute/measure/bench_row.h"
#include "render/legend.h"
#include "render/orbit_camera.h"
#include "render/target.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

// The mouse over the frame, in frame pixels; the lab turns it into work in its next step().
struct Pointer {
  float x = 0, y = 0;
  bool left = false, right = false;  // held down
  float wheel = 0;                   // scroll steps this frame (up > 0)
};

// The 3D labs' camera handling: right drag turns the orbit camera (a trackball camera rolls
// within `area`, the picture's), the wheel zooms.
struct OrbitControl {
  bool had = false;
  float x = 0, y = 0;  // the pointer last frame
  void update(render::OrbitCamera& camera, const Pointer& p, bool enabled = true, const render::Rect* area = nullptr) {
    if (enabled && p.right && had && camera.trackball && area)
      camera.roll(x, y, p.x, p.y, *area);
    else if (enabled && p.right && had)
      camera.orbit(p.x - x, p.y - y);
    if (enabled && p.wheel != 0) camera.zoom(p.wheel);
    had = true, x = p.x, y = p.y;
  }
};

// One piece of a lab's state on the GPU (a buffer or an image), for step back (app/core/history).
struct StatePart {
  const gpu::Buffer* buffer = nullptr;
  const gpu::Image* image = nullptr;
};

// One of the lab's GPU arrays, for the buffer inspector (app/core/inspector.*): read back on
// demand and shown as a typed table.
struct Inspectable {
  std::string name;
  StatePart data;
  std::string type = "float";        // float, int, uint, vec2, vec4, double, ... (inspector_types()), or a key's name
  uint32_t width = 0;                // elements a row where it is a grid (0: a plain array)
  bool drawn = false;                // the picture shows this grid, fitted to the frame (the cell under the mouse)
  float (*key)(uint32_t) = nullptr;  // `type` names 32-bit keys that read as these values (the lab's own encoding)
};

// Bytes back into values (a StatePart's contents).
template <class T>
std::vector<T> as_vector(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

namespace exercise {
class UserKernel;  // compute/exercise/user_kernel.h
}

using gpu::BenchOptions;  // compute/measure/bench_row.h
using gpu::BenchRow;

class Lab {
 public:
  virtual ~Lab() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;
  ParamSet& params() { return params_; }
  const ParamSet& params() const { return params_; }

  // (Re)builds GPU state from the parameters on ctx. Strong guarantee: on failure it
  // throws and the previous state is untouched. Call with the GPU idle.
  virtual void build(gpu::Context& ctx) = 0;
  // Back to the initial condition (same parameters).
  virtual void restart() = 0;
  virtual uint32_t steps_per_frame() const = 0;
  // False for a lab whose work is done when it is built (nothing to step): headless ignores --steps.
  virtual bool steps() const { return true; }
  // Records `steps` simulation steps (and any pending user input) into cmd.
  virtual void step(VkCommandBuffer cmd, gpu::Profiler& prof, uint32_t steps) = 0;
  // Compute passes the picture needs, recorded after step() and before the rendering that
  // draw() runs inside begins (a picture shaded by a compute pass, for example).
  virtual void prepare_draw(VkCommandBuffer /*cmd*/, gpu::Profiler& /*prof*/, const render::Frame& /*frame*/) {}
  // Records drawing inside render::begin_rendering(frame).
  virtual void draw(VkCommandBuffer cmd, gpu::Profiler& prof, const render::Frame& frame) = 0;
  virtual void pointer(const Pointer&, const render::Frame&) {}
  // Extra panel widgets and read-outs beyond the parameter list (ImGui).
  virtual void ui() {}
  // A text the user writes in the lab (a kernel of their own), in the window's editor pane
  // beside the picture while this says so; its contents drawn by editor_pane (ImGui).
  virtual bool wants_editor_pane() const { return false; }
  virtual void editor_pane() {}
  // State arrays as .npy in dir; returns facts to add to the dump's JSON.
  virtual nlohmann::json dump(const std::filesystem::path& dir) = 0;
  virtual std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) = 0;
  // Step back (the grid labs): the GPU buffers or images that hold the whole state after a
  // frame, and how to put their contents (in the same order) back, as at step `step`.
  virtual std::vector<StatePart> state_parts() const { return {}; }
  virtual void restore_state(const std::vector<std::vector<uint8_t>>& /*parts*/, uint64_t /*step*/) {}
  // What the picture's legend says (render/legend.h): by default the title and the step;
  // labs add their key parameters, time and colour bar.
  virtual render::Legend legend() const { return {{legend_title(), "step " + std::to_string(steps_done_)}, {}}; }
  // "Subject - Author 2005": the title's subject and its source's author and year.
  std::string legend_title() const {
    std::string t = title();
    auto open = t.find(" (");
    if (open == std::string::npos) return t;
    std::string source = t.substr(open + 2);
    source = source.substr(0, std::min(source.find(','), source.find(')')));
    return t.substr(0, open) + " - " + source;
  }
  // "c 4 units/s, dt 0.01667 s": these knobs as the legend shows them.
  template <class... Knobs>
  static std::string legend_values(const Knobs&... knobs) {
    std::string out;
    auto add = [&](const Param& p) {
      if (!p.text().empty())
        out += (out.empty() ? "" : ", ") + p.name + " " + p.text() + (p.unit.empty() ? "" : " " + p.unit);
    };
    (add(knobs.param()), ...);
    return out;
  }
  // The plots the lab's panel draws (app/widgets/plot.h), by name: written as a picture and CSV by the
  // plot's PNG button in the window, and headless by --plot NAME=FILE.png.
  virtual std::vector<PlotData> plots() const { return {}; }
  // The tables the lab's panel shows (app/widgets/table.h), by name: their PNG and CSV buttons, and
  // headless --plot NAME=FILE.png as for a plot.
  virtual std::vector<TableData> tables() const { return {}; }
  // The arrays the Inspect tab offers.
  virtual std::vector<Inspectable> inspectables() const { return {}; }
  // Exercises (app/window/tabs/exercise_tab.h, app/modes/exercise_cli.h): run `kernel`, a kernel the user wrote for the
  // operator `op` (an exercise's check.json names it) that passed its check, in place of the lab's own from the next
  // step on; nullptr: the lab's own again. False where the lab cannot run it (the exercise is checked all the same).
  // The kernel outlives its use: the caller gives nullptr first.
  virtual bool use_kernel(const std::string& /*op*/, const exercise::UserKernel* /*kernel*/) { return false; }
  // A problem the user must hear about (a simulation that blew up), or "".
  virtual std::string problem() { return ""; }
  // Lines a headless run prints after its timings (a result and its check), or "".
  virtual std::string headless_report() { return ""; }
  // A line under the passes in the Timings tab and a headless run's timings: how the lab sized
  // the frames' work from their time, or "".
  virtual std::string timings_note() const { return ""; }
  // Why the lab made fewer steps than asked (a tool path that ended), said by headless runs.
  virtual std::string fewer_steps_reason() const { return "the lab stopped stepping"; }
  uint64_t steps_done() const { return steps_done_; }
  // Where build() reports its phases while it runs (Session::build sets it; nullptr: nowhere).
  void set_build_progress(BuildProgress* p) { build_progress_ = p; }

 protected:
  // build() says a phase ended (the window shows it while a long build runs beside its frames).
  void phase_done(const std::string& phase, double seconds) {
    if (build_progress_) build_progress_->done(phase, seconds);
  }
  // build() may stop here if the user asked to: only where its previous state is still whole.
  void stop_if_cancelled() const {
    if (build_progress_ && build_progress_->cancelled()) throw BuildCancelled();
  }
  ParamSet params_;
  uint64_t steps_done_ = 0;

 private:
  BuildProgress* build_progress_ = nullptr;
};
