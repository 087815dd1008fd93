// The window's transport (Play/Pause, Step, Restart, speed) over the picture, its keys, the
// help overlay and the presets panel: what a teacher drives a lab with in front of a class.
#include "presets.h"
#include "target.h"
#include "window.h"

#include <imgui.h>

#include <fstream>

namespace {

// The parameter that sets a lab's speed, where it has one.
Param* speed_param(ParamSet& set) {
  for (const char* name : {"steps_per_frame", "runs_per_frame", "positions_per_frame"})
    for (auto& p : set.all())
      if (p.name == name) return &p;
  return nullptr;
}

const struct {
  const char* name;
  int key;
} kKeyNames[] = {{"space", GLFW_KEY_SPACE},   {"s", GLFW_KEY_S},   {"right", GLFW_KEY_RIGHT}, {"r", GLFW_KEY_R},
                 {"c", GLFW_KEY_C},           {"f1", GLFW_KEY_F1}, {"tab", GLFW_KEY_TAB},     {"1", GLFW_KEY_1},
                 {"2", GLFW_KEY_2},           {"3", GLFW_KEY_3},   {"4", GLFW_KEY_4},         {"5", GLFW_KEY_5},
                 {"6", GLFW_KEY_6},           {"7", GLFW_KEY_7},   {"b", GLFW_KEY_B},         {"left", GLFW_KEY_LEFT},
                 {"escape", GLFW_KEY_ESCAPE}, {"i", GLFW_KEY_I}};

}  // namespace

int key_code(const std::string& name) {
  for (auto& k : kKeyNames)
    if (name == k.name) return k.key;
  std::string known;
  for (auto& k : kKeyNames) known += (known.empty() ? "" : ", ") + std::string(k.name);
  throw UsageError("unknown key '" + name + "' (keys: " + known + ")");
}

void Window::restart_lab() {
  vkDeviceWaitIdle(ctx_->device);
  lab_->restart();
  history_->clear();
}

void Window::go_back_to(size_t snapshot) {
  vkDeviceWaitIdle(ctx_->device);
  try {
    history_->restore(*lab_, snapshot);
  } catch (const std::exception& e) {
    error_ = std::string("could not go back: ") + e.what();
  }
}

uint32_t Window::steps_this_frame() {
  // A bench or sweep runs on its own device: the lab waits so the two do not share the GPU.
  uint32_t steps = bench_running() ? 0u : paused_ ? (step_once_ ? 1u : 0u) : lab_->steps_per_frame();
  step_once_ = false;
  return steps;
}

// --keys FRAME:KEY,...: presses a key at a frame through ImGui's key state, as GLFW's
// callback would (a test aid: the same handlers as a real key).
void Window::inject_keys() {
  ImGuiIO& io = ImGui::GetIO();
  for (auto& [frame, key] : opts_.keys) {
    if (frame == frame_count_) io.KeysDown[key] = true;
    if (frame + 1 == frame_count_) io.KeysDown[key] = false;
  }
}

// --exercise: resize, minimise and toggle vsync during --frames (a test aid).
void Window::exercise(uint64_t f) {
  uint64_t n = opts_.frames;
  if (f == n / 5) {
    vsync_ = !vsync_;
    resized_ = true;
  } else if (f == 2 * n / 5) {
    glfwSetWindowSize(window_, int(opts_.width) * 3 / 4, int(opts_.height) * 3 / 4);
  } else if (f == 3 * n / 5) {
    glfwIconifyWindow(window_);
  } else if (f == 3 * n / 5 + 3) {
    glfwRestoreWindow(window_);
  } else if (f == 4 * n / 5) {
    glfwSetWindowSize(window_, int(opts_.width), int(opts_.height));
    vsync_ = !vsync_;
    resized_ = true;
  }
}

void Window::keys() {
  if (ImGui::GetIO().WantTextInput) return;  // typing in a field
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  if (pressed(GLFW_KEY_SPACE)) paused_ = !paused_;
  bool behind = history_->size() > 0 && history_->cursor() + 1 < history_->size();
  if (pressed(GLFW_KEY_S) || (pressed(GLFW_KEY_RIGHT) && !behind)) paused_ = true, step_once_ = true;
  if (pressed(GLFW_KEY_RIGHT) && behind) paused_ = true, go_back_to(history_->cursor() + 1);  // replay
  if (pressed(GLFW_KEY_LEFT) && history_->cursor() > 0) paused_ = true, go_back_to(history_->cursor() - 1);
  if (pressed(GLFW_KEY_R)) restart_lab();
  if (pressed(GLFW_KEY_C)) {
    capture_requested_ = true;
    capture_path_ = render::timestamped_capture_path("captures", lab_->name());
  }
  if (pressed(GLFW_KEY_F1)) sidebar_ = true, select_tab_ = "Help";
  if (pressed(GLFW_KEY_I)) sidebar_ = true, select_tab_ = "Inspect", inspect_now_ = true;
  if (pressed(GLFW_KEY_TAB)) sidebar_ = !sidebar_;
  if (pressed(GLFW_KEY_B)) start_bench(false);
  if (pressed(GLFW_KEY_ESCAPE) && job_) job_->cancel();
  for (size_t k = 0; k < lab_names().size() && k < 9; ++k)
    if (pressed(GLFW_KEY_1 + int(k)) && lab_names()[k] != lab_->name()) switch_lab(lab_names()[k]);
}

void Window::transport_bar() {
  auto area = lab_frame(0).area;
  ImGui::SetNextWindowPos({float(area.offset.x) + 8, 8});
  ImGui::SetNextWindowBgAlpha(0.7f);
  ImGui::Begin("transport", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  if (ImGui::Button(paused_ ? "Play" : "Pause")) paused_ = !paused_;
  ImGui::SameLine();
  if (ImGui::Button("Step")) paused_ = true, step_once_ = true;
  ImGui::SameLine();
  if (ImGui::Button("Restart")) restart_lab();
  if (Param* speed = speed_param(lab_->params())) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120);
    int v = int(speed->value);
    if (ImGui::SliderInt("##speed", &v, 1, std::min(int(speed->max), 64), "%d a frame"))
      lab_->params().set_value(speed->name, v);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (--set %s=N)", speed->help.c_str(), speed->name.c_str());
  }
  ImGui::SameLine();
  float gpu_ms = gpu_ms_history_.empty() ? 0.0f : gpu_ms_history_.back();
  ImGui::TextDisabled("%s  step %llu  GPU %.2f ms a frame  (F1: help)",
                      bench_running() ? "waiting for the bench"
                      : paused_       ? "paused"
                                      : "running",
                      (unsigned long long)lab_->steps_done(), gpu_ms);
  history_bar();
  ImGui::End();
}

// Step back: a slider over the snapshots kept (the grid labs), shown once there are two.
void Window::history_bar() {
  size_t n = history_->size();
  if (n < 2) return;
  int at = int(history_->cursor());
  char text[96];
  std::snprintf(text, sizeof text, "step %llu (%d of %zu kept)", (unsigned long long)history_->step(size_t(at)), at + 1,
                n);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
  if (ImGui::SliderInt("##history", &at, 0, int(n) - 1, text)) {
    paused_ = true;
    go_back_to(size_t(at));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Scrub back through the last %zu frames (Left / Right keys); playing on from a past frame "
        "drops the ones after it. %.1f MiB a frame, %zu at most.",
        n, double(history_->bytes_each()) / (1 << 20), history_->capacity());
}

// The Help tab: the lab's page (assets/help/<lab>.md) with Load buttons for the presets it
// names, then the keys.
void Window::help_panel() {
  if (help_lab_ != lab_->name()) {
    help_lab_ = lab_->name();
    help_page_ = parse_help(lab_help_text(help_lab_));
  }
  if (help_page_.empty()) ImGui::TextWrapped("No help page for this lab (assets/help/%s.md).", help_lab_.c_str());
  std::string load = draw_help(help_page_);
  if (!load.empty()) load_preset(find_preset(load));
  ImGui::Spacing();
  ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "Keys");
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingStretchProp)) {
    for (auto& k : window_keys()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys);
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", k.what);
    }
    ImGui::EndTable();
  }
}

// Loads a preset into the running lab (switching labs if it is another's); a refused one
// leaves everything as it was and says why in the panel.
void Window::load_preset(const Preset& p) {
  try {
    auto lab = make_lab(p.lab);
    apply_preset(p, lab->params());  // checked on a fresh lab first: nothing changes on an error
    if (p.lab != lab_->name()) switch_lab(p.lab);
    apply_preset(p, lab_->params());
    lab_->params().rebuild_pending = true;
    preset_message_ = "loaded " + p.name;
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void Window::presets_panel() {
  static int chosen = 0;
  const auto& all = shipped_presets();
  if (!all.empty()) {
    chosen = std::clamp(chosen, 0, int(all.size()) - 1);
    if (ImGui::BeginCombo("shipped", all[size_t(chosen)].name.c_str())) {
      for (size_t i = 0; i < all.size(); ++i) {
        if (ImGui::Selectable(all[i].name.c_str(), int(i) == chosen)) chosen = int(i);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", all[i].what.c_str());
      }
      ImGui::EndCombo();
    }
    ImGui::TextWrapped("%s", all[size_t(chosen)].what.c_str());
    if (ImGui::Button("Load shipped")) load_preset(all[size_t(chosen)]);
  }
  char path[512];
  std::snprintf(path, sizeof path, "%s", preset_path_.c_str());
  if (ImGui::InputText("file", path, sizeof path)) preset_path_ = path;
  if (ImGui::Button("Load file")) {
    try {
      load_preset(find_preset(preset_path_));
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Save")) {
    std::filesystem::path out(preset_path_);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    std::ofstream f(out);
    if (f << preset_json(lab_->name(), lab_->params()).dump(2) << "\n")
      preset_message_ = "saved " + std::filesystem::absolute(out).string();
    else
      error_ = "cannot write " + preset_path_;
  }
  if (!preset_message_.empty()) ImGui::TextWrapped("%s", preset_message_.c_str());
}
