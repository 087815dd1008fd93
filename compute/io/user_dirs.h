// Where vklab keeps what it writes for the user, on every system (the system's folders come from
// platform::known_folder):
//   Settings    $VKLAB_CONFIG_DIR, else <settings folder>/vklab (~/.config/vklab; %APPDATA%\vklab)
//   Cache       $VKLAB_CACHE_DIR, else <cache folder>/vklab (~/.cache/vklab; %LOCALAPPDATA%\vklab)
//   Captures    <Pictures>/vklab on Windows, whose double-clicked program works in its own
//               folder; else captures/ in the working folder
//   Recordings  <Videos>/vklab on Windows; else recordings/ in the working folder
//   Exercises   $VKLAB_EXERCISE_DIR, else <Documents>/vklab-exercises (~/vklab-exercises;
//               Documents\vklab-exercises), else vklab-exercises/ in the working folder
// Settings and Cache are empty where none of theirs is set (no HOME): the caller decides what
// that means.
#pragma once
#include <filesystem>

namespace io {

enum class UserDir { Settings, Cache, Captures, Recordings, Exercises };
std::filesystem::path user_dir(UserDir which);

}  // namespace io
