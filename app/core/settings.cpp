#include "app/core/settings.h"
#include "compute/io/input.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include "compute/io/user_dirs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

std::filesystem::path settings_path() {
  auto dir = io::user_dir(io::UserDir::Settings);
  return (dir.empty() ? std::filesystem::path(".") / ".config" / "vklab" : dir) / "settings.json";
}

std::filesystem::path peaks_path() { return settings_path().parent_path() / "peaks.json"; }
std::filesystem::path cpu_baselines_path() { return settings_path().parent_path() / "cpu_baselines.json"; }
std::filesystem::path bench_times_path() { return settings_path().parent_path() / "bench_times.json"; }

Settings load_settings() {
  Settings s;
  auto path = settings_path();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return s;
  try {
    auto j = nlohmann::json::parse(io::read_input(path, 1 << 20));  // a regular file, within 1 MiB
    s.ui_scale = j.value("ui_scale", 0.0f);
    s.panel_width = j.value("panel_width", 0.0f);
    s.bench_quick = j.value("bench_quick", true);
    s.legend = j.value("legend", true);
    if (s.ui_scale != 0) s.ui_scale = std::clamp(s.ui_scale, 0.75f, 3.0f);
    if (s.panel_width != 0) s.panel_width = std::clamp(s.panel_width, 260.0f, 900.0f);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: ignoring the settings in %s: %s\n", platform::utf8(path).c_str(), e.what());
    s = Settings{};
  }
  return s;
}

std::string save_settings(const Settings& s) {
  auto path = settings_path();
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  nlohmann::json j = {
      {"ui_scale", s.ui_scale}, {"panel_width", s.panel_width}, {"bench_quick", s.bench_quick}, {"legend", s.legend}};
  try {
    io::write_file(path, j.dump(2) + "\n");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
