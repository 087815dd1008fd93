// What the window remembers between runs: a small JSON file in the user's settings folder
// (compute/io/user_dirs.h: $VKLAB_CONFIG_DIR, else ~/.config/vklab or %APPDATA%\vklab).
#pragma once
#include <filesystem>
#include <string>

struct Settings {
  float ui_scale = 0;       // 0: the monitor's content scale (HiDPI), else 0.75..3
  float panel_width = 0;    // the sidebar's width at scale 1 (0: the default)
  bool bench_quick = true;  // the Bench panel's "quick"
  bool legend = true;       // the legend drawn into the picture
};

std::filesystem::path settings_path();
// The device peaks' cache (compute/measure/roofline.h), beside the settings file.
std::filesystem::path peaks_path();
// The CPU references' times kept per machine (compute/measure/cpu_baselines.h), beside it.
std::filesystem::path cpu_baselines_path();
// Each bench's rows' times on each device, for its progress and estimate (compute/measure/bench_estimate.h).
std::filesystem::path bench_times_path();
// A missing file gives the defaults; an unreadable or malformed one too, with a line on stderr.
Settings load_settings();
// Returns "" or why it could not be written.
std::string save_settings(const Settings& s);
