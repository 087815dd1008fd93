#include "app/core/session.h"
#include "compute/io/output.h"

#include "app/core/presets.h"

#include "compute/gpu/renderdoc.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <utility>

namespace {
constexpr size_t kGpuMsHistory = 240;  // frames in the Timings tab's plot
}  // namespace

nlohmann::json device_json(const gpu::Context& ctx) {
  return {{"name", ctx.info.name},
          {"type", ctx.info.type},
          {"driver", ctx.info.driver},
          {"vulkan", ctx.info.api},
          {"subgroup_size", ctx.info.subgroup_size},
          {"device_local_mib", ctx.info.device_local_mib}};
}

std::string capture_manifest(const Lab& lab, const gpu::Context& ctx) {
  nlohmann::json j = {{"lab", lab.name()},
                      {"what", "captured by " VKLAB_VERSION_TEXT},
                      {"params", lab.params().to_json()},
                      {"device", device_json(ctx)},
                      {"step", lab.steps_done()},
                      {"version", VKLAB_VERSION_TEXT}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::unique_ptr<Lab> lab_from_options(const Options& o, const std::string& name) {
  auto lab = make_lab(name);
  if (!o.preset.empty()) apply_preset(find_preset(o.preset), lab->params());
  for (auto& s : o.sets) lab->params().set_assignment(s);
  return lab;
}

gpu::ContextOptions context_options(const Options& o) {
  gpu::ContextOptions c;
  c.validation = o.validate;
  c.portability = o.portability;
  c.device = o.device;
  std::string memory = o.memory;
  if (memory.empty() && gpu::RenderDoc::get().attached()) {
    // RenderDoc saves every memory object a capture touches whole: 256 MiB blocks would make
    // each capture hundreds of MiB and slow. Timings under RenderDoc mean little anyway.
    std::fprintf(stderr, "vklab: under RenderDoc, one allocation per buffer (--memory pooled keeps the pool)\n");
    memory = "dedicated";
  }
  c.memory = gpu::parse_memory_options(memory.empty() ? "pooled" : memory);
  c.memory.budget = o.memory_budget_mib << 20;
  c.wait_limit = std::chrono::seconds(o.gpu_timeout_s);
  if (const char* n = std::getenv("VKLAB_SIMULATE_DEVICE_LOST")) c.simulate_lost_at = std::strtoull(n, nullptr, 10);
  // A user's kernel runs here: its writes past an array are dropped by the device.
  c.robust_buffer_access = o.mode == Options::Mode::Exercise || !o.exercise.empty();
  // The kernels' registers and occupancy (--occupancy, the Timings tab), not in the benches.
  c.pipeline_statistics = o.occupancy || o.mode == Options::Mode::Window;
  return c;
}

void report_validation(const Options& o, const gpu::Context& ctx) {
  if (o.validate)
    std::fprintf(stderr, "vklab: validation: %llu messages\n", (unsigned long long)ctx.validation_count());
}

Session::Session(const gpu::ContextOptions& co, std::unique_ptr<Lab> lab, Parts parts) {
  ctx_ = std::make_unique<gpu::Context>(co);
  prof_ = std::make_unique<gpu::Profiler>(*ctx_);
  if (parts.history) history_ = std::make_unique<History>(*ctx_);
  if (parts.legend) legend_ = std::make_unique<render::LegendView>(*ctx_);
  if (parts.build) build(*lab);
  lab_ = std::move(lab);
  params_before_ = lab_->params().all();
}

// The lab's GPU state goes before the context that made it.
void Session::close() {
  if (ctx_ && !ctx_->failed().empty() && !ctx_->lost()) {
    // The GPU may still be running (or never end) work on these objects: they are left to
    // the process's end rather than destroyed under it (gpu::Context::~Context does the same).
    // A lost device runs nothing more, so its objects are destroyed below.
    (void)lab_.release(), (void)history_.release(), (void)legend_.release(), (void)prof_.release();
    return;
  }
  if (ctx_) ctx_->wait_idle();
  lab_.reset();
  history_.reset();
  legend_.reset();
  prof_.reset();
}

std::string Session::rescue(const std::string& why) const { return rescue_preset(*lab_, why, device_json()); }

std::string rescue_preset(const Lab& lab, const std::string& why, const nlohmann::json& device) {
  std::string file = "vklab-rescued-" + lab.name() + ".json";
  nlohmann::json j = preset_json(lab.name(), lab.params(), "the parameters of a run the GPU failed: " + why);
  j["steps_done"] = lab.steps_done();
  if (!device.is_null()) j["device"] = device;
  try {
    io::write_file(file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  } catch (const std::runtime_error&) {
    return "";
  }
  return file;
}

std::string Session::manifest() const { return capture_manifest(*lab_, *ctx_); }
nlohmann::json Session::device_json() const { return ::device_json(*ctx_); }

// A lab's GPU memory is counted under its name (the Timings tab's memory line).
void Session::build(Lab& lab, BuildProgress* progress) {
  gpu::Allocator::Owner owner(ctx_->allocator(), lab.name());
  lab.set_build_progress(progress);
  try {
    lab.build(*ctx_);
  } catch (...) {
    lab.set_build_progress(nullptr);
    throw;
  }
  lab.set_build_progress(nullptr);
}

void Session::record_steps(VkCommandBuffer cmd, uint32_t steps) {
  prof_->begin_frame(cmd);
  gpu::Allocator::Owner owner(ctx_->allocator(), lab_->name());  // what the lab makes as it runs is its own
  lab_->step(cmd, *prof_, steps);
  if (history_ && (steps > 0 || history_->size() == 0)) history_->record(cmd, *lab_);
}

render::Frame Session::lab_frame(const render::Frame& frame, float legend_scale) const {
  render::Frame f = frame;
  if (legend_ && legend_scale > 0) f.area = render::legend_layout(lab_->legend(), frame.area, legend_scale).picture;
  return f;
}

void Session::record_picture(VkCommandBuffer cmd, const render::Frame& frame, float legend_scale) {
  render::Frame f = lab_frame(frame, legend_scale);
  lab_->prepare_draw(cmd, *prof_, f);
  render::begin_rendering(cmd, frame, render::kBackground);
  lab_->draw(cmd, *prof_, f);
  if (legend_ && legend_scale > 0) legend_->draw(cmd, frame, lab_->legend(), legend_scale);
  render::end_rendering(cmd);
}

// The GPU is idle for the lab here (labs read back in problem()). A watchdog's stop pauses
// the transport: the step count stays where the lab stopped and the step-back ring keeps the
// frames before it, so a class can go back to where the trouble first shows.
std::string Session::collect_frame() {
  timings_ = prof_->resolve();
  spans_ = prof_->spans();
  float total = 0;
  for (auto& t : timings_) total += float(t.ms);
  gpu_ms_history_.push_back(total);
  if (gpu_ms_history_.size() > kGpuMsHistory) gpu_ms_history_.pop_front();
  std::string said;
  if (auto p = lab_->problem(); p != said_problem_) {
    if (!p.empty()) {
      said = p;
      transport.paused = true, transport.step_requests = 0;
    }
    said_problem_ = p;
  }
  return said;
}

void Session::apply_rebuild() {
  std::exception_ptr failed;
  try {
    build_for_rebuild(nullptr);
  } catch (...) {
    failed = std::current_exception();
  }
  finish_rebuild(failed);
}

void Session::build_for_rebuild(BuildProgress* progress) {
  ctx_->wait_idle();
  build(*lab_, progress);
}

void Session::build_unbuilt(BuildProgress* progress) {
  build(*lab_, progress);
  params_before_ = lab_->params().all();
}

void Session::finish_rebuild(std::exception_ptr failed) {
  try {
    if (failed) std::rethrow_exception(failed);
    params_before_ = lab_->params().all();
    if (history_) history_->clear();
    // a preset: from step 0, as --preset starts (a lab without steps was just built afresh)
    if (std::exchange(restart_pending_, false) && lab_->steps()) {
      lab_->restart();
      said_problem_.clear();
      transport.step_requests = 0;
    }
  } catch (const std::exception& e) {
    restart_pending_ = false;
    // Keep the running state: the lab is unchanged, its parameters go back.
    bool cancelled = dynamic_cast<const BuildCancelled*>(&e) != nullptr;
    error = cancelled ? "the change was cancelled: the lab is as it was"
                      : std::string("could not apply the change: ") + e.what();
    if (!params_before_.empty()) lab_->params().all() = params_before_;
    lab_->params().rebuild_pending = false;
  }
}

void Session::switch_lab(const std::string& name) {
  if (name == lab_->name()) return;
  ctx_->wait_idle();
  try {
    auto lab = make_lab(name);
    build(*lab);
    lab_ = std::move(lab);
    if (history_) history_->clear();
    transport = {};  // a lab opens running, whatever the last one was doing
    said_problem_.clear();
    params_before_ = lab_->params().all();
    timings_.clear();
    gpu_ms_history_.clear();
  } catch (const std::exception& e) {
    error = "could not start lab '" + name + "': " + e.what();
  }
}

// A refused preset leaves everything as it was and says why. A preset starts at step 0 from the
// lab's defaults and its values, as --preset does: the lab is rebuilt where a value that shapes
// its GPU state changes (Param::rebuild), else restarted with the new values (a lab without
// steps, whose work is done when it is built, just takes them: a new picture of the same run).
void Session::load_preset(const Preset& p) {
  try {
    ParamSet values = preset_params(p);  // the lab's defaults and the preset's values, checked first
    if (p.lab != lab_->name()) switch_lab(p.lab);
    if (p.lab != lab_->name()) return;  // the switch failed and said why
    bool rebuild = false;
    const auto& now = lab_->params().all();
    for (size_t i = 0; i < now.size() && i < values.all().size(); ++i)
      rebuild = rebuild || (now[i].rebuild && now[i].text() != values.all()[i].text());
    lab_->params().all() = values.all();
    if (rebuild) {
      lab_->params().rebuild_pending = true;
      restart_pending_ = true;  // whatever the lab's build keeps (a lab may keep its state), a preset starts afresh
    } else {
      lab_->params().rebuild_pending = false;
      if (lab_->steps()) restart();
      said_problem_.clear();
    }
    preset_message = "loaded " + p.name + ": from step 0";
  } catch (const std::exception& e) {
    error = e.what();
  }
}

void Transport::apply(Session& s) {
  if (restart_asked) s.restart();
  if (go_back_asked >= 0) paused = true, s.go_back_to(size_t(go_back_asked));
  restart_asked = false, go_back_asked = -1;
}

void Session::restart() {
  ctx_->wait_idle();
  lab_->restart();
  if (history_) history_->clear();
}

void Session::go_back_to(size_t snapshot) {
  if (!history_) return;
  ctx_->wait_idle();
  try {
    history_->restore(*lab_, snapshot);
  } catch (const std::exception& e) {
    error = std::string("could not go back: ") + e.what();
  }
}
