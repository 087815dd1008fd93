// The shipped exercises as the app finds them (assets/<lab>/exercises/<name>/, beside the
// executable, installed or in the source tree), and the user's copies of their kernels: a file
// a kernel under the user's exercise folder ($VKLAB_EXERCISE_DIR, else ~/vklab-exercises), made
// from the starting kernel once and never overwritten.
#pragma once
#include "compute/exercise/exercise.h"

#include <filesystem>
#include <string>
#include <vector>

// Every shipped exercise, loaded once; throws std::runtime_error when the folder cannot be
// found or an exercise is malformed.
const std::vector<exercise::Exercise>& shipped_exercises();
// One of them by name ("lab/name"); throws std::invalid_argument listing the names.
const exercise::Exercise& shipped_exercise(const std::string& name);

std::filesystem::path exercise_folder();
// The user's copy of `e`'s kernel: <folder>/<lab>-<name>.comp.
std::filesystem::path user_kernel_path(const exercise::Exercise& e);
// Makes `path` (and its folder) from e's starting kernel if it does not exist yet; returns
// whether it made it. Throws std::runtime_error when it cannot be written.
bool make_user_kernel(const exercise::Exercise& e, const std::filesystem::path& path);

// A text file's contents; throws std::runtime_error naming it when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);
// Writes `text` to `path` whole (through a temporary file beside it, renamed over it, so a
// failed write leaves the old file); throws std::runtime_error naming it.
void write_text_file(const std::filesystem::path& path, const std::string& text);
