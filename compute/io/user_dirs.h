// Where vklab keeps what it writes for the user between runs, by the XDG base directories:
// `override_env` if set, else $<xdg_env>/vklab, else ~/<home_folder>/vklab. Empty when none
// of them is set (no HOME): the caller decides what that means.
//   settings: user_dir("VKLAB_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")
//   the font atlas's cache: user_dir("VKLAB_CACHE_DIR", "XDG_CACHE_HOME", ".cache")
#pragma once
#include <filesystem>

namespace io {

std::filesystem::path user_dir(const char* override_env, const char* xdg_env, const char* home_folder);

}  // namespace io
