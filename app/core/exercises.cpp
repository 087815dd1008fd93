#include "app/core/exercises.h"
#include "compute/io/input.h"
#include "compute/io/output.h"
#include "compute/io/user_dirs.h"
#include "compute/io/user_text.h"

#include "app/core/assets.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

const std::vector<exercise::Exercise>& shipped_exercises() {
  static const std::vector<exercise::Exercise> all = [] {
    try {
      return exercise::load_exercises(find_asset(""));
    } catch (const std::invalid_argument& e) {  // a malformed check.json
      throw std::runtime_error(e.what());
    }
  }();
  return all;
}

const exercise::Exercise& shipped_exercise(const std::string& name) {
  return exercise::find_exercise(shipped_exercises(), name);
}

fs::path exercise_folder() { return io::user_dir(io::UserDir::Exercises); }

fs::path user_kernel_path(const exercise::Exercise& e) {
  return exercise_folder() / (e.lab + "-" + e.dir.filename().string() + ".comp");
}

bool make_user_kernel(const exercise::Exercise& e, const fs::path& path) {
  if (fs::exists(path)) return false;
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  write_text_file(path, e.start());
  return true;
}

std::string read_text_file(const fs::path& path) { return io::read_input(path, io::TextLimits{}.max_bytes); }

void write_text_file(const fs::path& path, const std::string& text) { io::write_file(path, text); }
