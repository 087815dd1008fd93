// The window's keys: GLFW's presses queued for the next frame and what each does (app/core/keys.h
// names them and lists them for the Help tab), presentation mode and full screen, which keys and
// the transport bar turn on and off, and --keys and --shake (test aids).
#include "app/core/keys.h"
#include "app/window/window.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>

// Every press GLFW reports, queued for the next frame: a tap shorter than a frame (press and
// release between two polls) still counts, which ImGui's once-a-frame key state would miss.
void Window::on_key(int key, int action) {
  if (action == GLFW_PRESS) key_presses_.push_back(key);
}

// --keys FRAME:KEY,...: presses and releases a key at a frame through the same path as GLFW's
// callback (a test aid: the same handlers as a real key, ImGui's included).
void Window::inject_keys() {
  for (auto& [frame, key] : opts_.keys)
    if (frame == frame_count_) {
      on_key(key, GLFW_PRESS);
      imgui_keys_.push_back({key, 0, GLFW_PRESS, 0});
      imgui_keys_.push_back({key, 0, GLFW_RELEASE, 0});
    }
}

// ImGui's key events in order, at most one change of each key this frame: a press and its
// release in the same frame reach ImGui in two frames, so none is lost.
void Window::feed_imgui_keys() {
  std::vector<int> changed;
  while (!imgui_keys_.empty()) {
    KeyEvent e = imgui_keys_.front();
    if (e.action != GLFW_REPEAT) {
      if (std::find(changed.begin(), changed.end(), e.key) != changed.end()) break;
      changed.push_back(e.key);
    }
    ImGui_ImplGlfw_KeyCallback(window_, e.key, e.scancode, e.action, e.mods);
    imgui_keys_.pop_front();
  }
}

// --shake: resize, minimise and toggle vsync during --frames (a test aid).
void Window::shake(uint64_t f) {
  uint64_t n = opts_.frames;
  if (f == n / 5) {
    view_.vsync = !view_.vsync;
    resized_ = true;
  } else if (f == 2 * n / 5) {
    glfwSetWindowSize(window_, int(opts_.width) * 3 / 4, int(opts_.height) * 3 / 4);
  } else if (f == 3 * n / 5) {
    glfwIconifyWindow(window_);
  } else if (f == 3 * n / 5 + 3) {
    glfwRestoreWindow(window_);
  } else if (f == 4 * n / 5) {
    glfwSetWindowSize(window_, int(opts_.width), int(opts_.height));
    view_.vsync = !view_.vsync;
    resized_ = true;
  }
}

void Window::keys() {
  std::vector<int> presses;
  presses.swap(key_presses_);
  if (ImGui::GetIO().WantTextInput) return;  // typing in a field
  Session& s = *session_;
  History& history = *s.history();
  for (int key : presses) {
    bool behind = history.size() > 0 && history.cursor() + 1 < history.size();
    switch (key) {
      case GLFW_KEY_SPACE:
        s.transport.toggle();
        break;
      case GLFW_KEY_S:
        s.transport.step();
        break;
      case GLFW_KEY_RIGHT:  // replays a frame gone back over, else steps
        if (behind)
          s.transport.paused = true, s.go_back_to(history.cursor() + 1);
        else
          s.transport.step();
        break;
      case GLFW_KEY_LEFT:
        s.transport.paused = true;
        if (history.cursor() > 0) s.go_back_to(history.cursor() - 1);
        break;
      case GLFW_KEY_R:
        s.restart();
        break;
      case GLFW_KEY_C:
        picture_tab_.request_capture(s);
        break;
      case GLFW_KEY_V:
        picture_tab_.toggle_recording();
        break;
      case GLFW_KEY_F1:  // a tab: out of presentation mode
        set_presenting(false), sidebar_ = true, select_tab_ = "Help";
        break;
      case GLFW_KEY_I:
        set_presenting(false), sidebar_ = true, select_tab_ = "Inspect";
        inspect_tab_.read_next();
        break;
      case GLFW_KEY_P:
        set_presenting(!presenting_);
        break;
      case GLFW_KEY_F11:  // full screen is for presenting
        if (!fullscreen_) set_presenting(true);
        set_fullscreen(!fullscreen_);
        break;
      case GLFW_KEY_TAB:  // in presentation mode: back to the sidebar
        sidebar_ = presenting_ || !sidebar_;
        set_presenting(false);
        break;
      case GLFW_KEY_B:
        bench_->start_bench(s, bench_tab_.quick());
        break;
      case GLFW_KEY_ESCAPE:
        set_presenting(false);
        bench_->cancel();
        break;
      default:
        if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9 && size_t(key - GLFW_KEY_1) < lab_names().size())
          s.switch_lab(lab_names()[size_t(key - GLFW_KEY_1)]);
    }
  }
}

// Presentation mode: the picture fills the window; the sidebar comes back as it was.
void Window::set_presenting(bool on) {
  presenting_ = on;
  pointer_moved_at_ = on ? -1e9 : pointer_moved_at_;  // the bar leaves at once
  if (!on && fullscreen_) set_fullscreen(false);
}

void Window::set_fullscreen(bool on) {
  if (on == fullscreen_) return;
  if (on) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;  // no monitor to fill: stays a window
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
  }
  fullscreen_ = on;
  resized_ = true;
}
