#include "app/core/keys.h"

#include "app/core/registry.h"
#include "compute/io/user_dirs.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <stdexcept>

namespace {

struct KeyName {
  std::string name;
  int key;
};

// The named keys, then a digit a registered lab (at most nine).
const std::vector<KeyName>& key_names() {
  static const std::vector<KeyName> names = [] {
    std::vector<KeyName> n = {{"space", GLFW_KEY_SPACE}, {"s", GLFW_KEY_S},           {"right", GLFW_KEY_RIGHT},
                              {"left", GLFW_KEY_LEFT},   {"r", GLFW_KEY_R},           {"c", GLFW_KEY_C},
                              {"v", GLFW_KEY_V},         {"i", GLFW_KEY_I},           {"tab", GLFW_KEY_TAB},
                              {"b", GLFW_KEY_B},         {"escape", GLFW_KEY_ESCAPE}, {"f1", GLFW_KEY_F1},
                              {"p", GLFW_KEY_P},         {"f11", GLFW_KEY_F11},       {"up", GLFW_KEY_UP},
                              {"down", GLFW_KEY_DOWN},   {"home", GLFW_KEY_HOME},     {"end", GLFW_KEY_END},
                              {"enter", GLFW_KEY_ENTER}};  // the last five: the editor's, for tests
    for (size_t k = 0; k < std::min<size_t>(lab_names().size(), 9); ++k)
      n.push_back({std::to_string(k + 1), GLFW_KEY_1 + int(k)});
    return n;
  }();
  return names;
}

}  // namespace

int key_code(const std::string& name) {
  for (auto& k : key_names())
    if (name == k.name) return k.key;
  std::string known;
  for (auto& k : key_names()) known += (known.empty() ? "" : ", ") + k.name;
  throw std::invalid_argument("unknown key '" + name + "' (keys: " + known + ")");
}

const std::vector<KeyHelp>& window_keys() {
  static const std::vector<KeyHelp> keys = [] {
    std::string digits, labs;  // "1 to 7", "1 <first lab>, 2 <second>, ..."
    size_t n = std::min<size_t>(lab_names().size(), 9);
    for (size_t k = 0; k < n; ++k) labs += (k ? ", " : "") + std::to_string(k + 1) + " " + lab_names()[k];
    digits = n > 1 ? "1 to " + std::to_string(n) : "1";
    auto folder = [](io::UserDir d) { return (io::user_dir(d) / "").string(); };  // "captures/" on Linux
    return std::vector<KeyHelp>{
        {"Space", "pause / play"},
        {"S or Right", "one step (pauses); Right replays a step you went back over"},
        {"Left", "back one frame (grid labs keep the last few hundred)"},
        {"R", "restart the lab"},
        {"C",
         "capture the picture as a PNG into " + folder(io::UserDir::Captures) + " (with the interface: Picture tab)"},
        {"V", "start / stop recording an MP4 into " + folder(io::UserDir::Recordings) + " (Picture tab)"},
        {"I", "read back the array chosen in the Inspect tab (opens it)"},
        {"Tab", "hide / show the sidebar"},
        {"P", "presentation mode: the picture alone; moving the mouse shows the bar"},
        {"F11", "full screen (in presentation mode)"},
        {digits, "switch lab: " + labs},
        {"B", "run the lab's benchmark (Bench tab)"},
        {"Esc", "leave presentation mode; cancel the benchmark or sweep, or a slow build of the lab"},
        {"F1", "the lab's help page and this list"}};
  }();
  return keys;
}
