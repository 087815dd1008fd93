// The window's transport (Play/Pause, Step, Restart, speed) over the picture, its keys, the
// help overlay and the presets panel: what a teacher drives a lab with in front of a class.
#include "app/presets.h"
#include "app/window.h"
#include "render/target.h"

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
                 {"escape", GLFW_KEY_ESCAPE}, {"i", GLFW_KEY_I},   {"v", GLFW_KEY_V}};

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
  if (bench_running()) return 0;
  uint32_t steps = paused_ ? step_requests_ : lab_->steps_per_frame();
  step_requests_ = 0;
  return steps;
}

// Every press GLFW reports, queued for the next frame: a tap shorter than a frame (press and
// release between two polls) still counts, which ImGui's once-a-frame key state would miss.
void Window::on_key(int key, int action) {
  if (action == GLFW_PRESS) key_presses_.push_back(key);
}

// --keys FRAME:KEY,...: presses a key at a frame through the same path as GLFW's callback
// (a test aid: the same handlers as a real key).
void Window::inject_keys() {
  for (auto& [frame, key] : opts_.keys)
    if (frame == frame_count_) on_key(key, GLFW_PRESS);
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
  std::vector<int> presses;
  presses.swap(key_presses_);
  if (ImGui::GetIO().WantTextInput) return;  // typing in a field
  for (int key : presses) {
    bool behind = history_->size() > 0 && history_->cursor() + 1 < history_->size();
    switch (key) {
      case GLFW_KEY_SPACE:
        paused_ = !paused_;
        break;
      case GLFW_KEY_S:
        paused_ = true, ++step_requests_;
        break;
      case GLFW_KEY_RIGHT:  // replays a frame gone back over, else steps
        paused_ = true;
        if (behind)
          go_back_to(history_->cursor() + 1);
        else
          ++step_requests_;
        break;
      case GLFW_KEY_LEFT:
        paused_ = true;
        if (history_->cursor() > 0) go_back_to(history_->cursor() - 1);
        break;
      case GLFW_KEY_R:
        restart_lab();
        break;
      case GLFW_KEY_C:
        capture_requested_ = true;
        capture_path_ = render::timestamped_capture_path("captures", lab_->name());
        break;
      case GLFW_KEY_V:
        record_toggle_ = true;
        break;
      case GLFW_KEY_F1:
        sidebar_ = true, select_tab_ = "Help";
        break;
      case GLFW_KEY_I:
        sidebar_ = true, select_tab_ = "Inspect", inspect_now_ = true;
        break;
      case GLFW_KEY_TAB:
        sidebar_ = !sidebar_;
        break;
      case GLFW_KEY_B:
        start_bench(false);
        break;
      case GLFW_KEY_ESCAPE:
        if (job_) job_->cancel();
        break;
      default:
        if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9 && size_t(key - GLFW_KEY_1) < lab_names().size())
          switch_lab(lab_names()[size_t(key - GLFW_KEY_1)]);
    }
  }
}

// The bar over the picture: it stays inside the picture at any UI scale, an item going to the
// next line where it would run past the picture's right edge.
void Window::transport_bar() {
  auto area = lab_frame(0).area;
  float max_w = std::max(float(area.extent.width) - 16, 100.0f);
  ImGui::SetNextWindowPos({float(area.offset.x) + 8, 8});
  ImGui::SetNextWindowBgAlpha(0.7f);
  ImGui::SetNextWindowSizeConstraints({0, 0}, {max_w, float(area.extent.height)});
  ImGui::Begin("transport", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  float right = ImGui::GetWindowPos().x + max_w - ImGui::GetStyle().WindowPadding.x;
  auto next = [&](float width) {  // beside the last item if `width` fits there
    float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    if (x + width <= right) ImGui::SameLine();
  };
  auto button_w = [](const char* text) { return ImGui::CalcTextSize(text).x + 2 * ImGui::GetStyle().FramePadding.x; };
  if (ImGui::Button(paused_ ? "Play" : "Pause")) paused_ = !paused_;
  next(button_w("Step"));
  if (ImGui::Button("Step")) paused_ = true, ++step_requests_;
  next(button_w("Restart"));
  if (ImGui::Button("Restart")) restart_lab();
  if (Param* speed = speed_param(lab_->params())) {
    float w = ImGui::GetFontSize() * 8;
    next(w);
    ImGui::SetNextItemWidth(w);
    int v = int(speed->value);
    if (ImGui::SliderInt("##speed", &v, 1, std::min(int(speed->max), 64), "%d a frame"))
      lab_->params().set_value(speed->name, v);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (--set %s=N)", speed->help.c_str(), speed->name.c_str());
  }
  float gpu_ms = gpu_ms_history_.empty() ? 0.0f : gpu_ms_history_.back();
  char status[160];
  std::snprintf(status, sizeof status, "%s  step %llu  GPU %.2f ms a frame  (F1: help)",
                bench_running()          ? "waiting for the bench"
                : !said_problem_.empty() ? "stopped"
                : paused_                ? "paused"
                                         : "running",
                (unsigned long long)lab_->steps_done(), gpu_ms);
  next(ImGui::CalcTextSize(status).x);
  ImGui::PushTextWrapPos(right);
  ImGui::TextDisabled("%s", status);
  ImGui::PopTextWrapPos();
  history_bar(right - ImGui::GetCursorScreenPos().x);
  transport_width_ = ImGui::GetWindowWidth();
  ImGui::End();
}

// Step back: a slider over the snapshots kept (the grid labs), shown once there are two.
void Window::history_bar(float width) {
  size_t n = history_->size();
  if (n < 2) return;
  int at = int(history_->cursor());
  char text[96];
  std::snprintf(text, sizeof text, "step %llu (%d of %zu kept)", (unsigned long long)history_->step(size_t(at)), at + 1,
                n);
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 22, width));
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

// The Help tab: the lab's page (assets/<lab>/help.md) with Load buttons for the presets it
// names, then the keys.
void Window::help_panel() {
  if (help_lab_ != lab_->name()) {
    help_lab_ = lab_->name();
    help_page_ = parse_help(lab_help_text(help_lab_));
  }
  if (help_page_.empty()) ImGui::TextWrapped("No help page for this lab (assets/%s/help.md).", help_lab_.c_str());
  std::string load = draw_help(help_page_);
  if (!load.empty()) load_preset(find_preset(load));
  ImGui::Spacing();
  ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "Keys");
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingStretchProp)) {
    for (auto& k : window_keys()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys.c_str());
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", k.what.c_str());
    }
    ImGui::EndTable();
  }
}

// Loads a preset into the running lab (switching labs if it is another's); a refused one
// leaves everything as it was and says why in the panel.
void Window::load_preset(const Preset& p) {
  try {
    ParamSet values = preset_params(p);  // the lab's defaults and the preset's values, checked first
    if (p.lab != lab_->name()) switch_lab(p.lab);
    if (p.lab != lab_->name()) return;  // the switch failed and said why
    lab_->params().all() = values.all();
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
