// A shipped exercise: a folder assets/<lab>/exercises/<name>/ holding task.md (the task, its
// hints), start.comp (the kernel to finish, with a gap or a bug), solution.comp (for teachers
// and the tests) and check.json (the operator it checks, the tolerance and the input cases).
#pragma once
#include "compute/exercise/operator.h"

#include <filesystem>
#include <string>
#include <vector>

namespace exercise {

// |got − want| <= ulps · ulp(scale) for every output word, the scale coming from the CPU twin;
// ulps = 0: bit for bit.
struct Tolerance {
  double ulps = 0;
  std::string what;  // one sentence: why this tolerance for this operator
};

struct Exercise {
  std::string name;    // "linalg/axpby"
  std::string lab;     // "linalg"
  std::string title;   // "Write axpby"
  std::string source;  // the document it follows, by author, year and title
  std::string op;      // the operator (operator.h): "linalg.axpby"
  Tolerance tolerance;
  std::vector<Case> cases;
  bool live = true;  // light enough to check every frame in the window
  // The lab's knobs ("name=value", check.json's "lab") under which it runs a passing kernel in
  // place of its own, where its defaults do not: what --exercise opens the lab with, and what
  // the Exercise tab's "Set the lab for my kernel" sets.
  std::vector<std::string> lab_settings;
  std::filesystem::path dir;  // task.md, start.comp, solution.comp

  std::string task() const;      // task.md
  std::string start() const;     // start.comp
  std::string solution() const;  // solution.comp
};

// The exercise in `dir`, a folder <lab>/exercises/<name> (named lab/name); throws std::invalid_argument
// "FILE: what is wrong" for a malformed check.json or a missing file.
Exercise load_exercise(const std::filesystem::path& dir);
// Every exercise under `root` (root/<lab>/exercises/<name>/: root is assets/), sorted by name.
std::vector<Exercise> load_exercises(const std::filesystem::path& root);
// The one named `name` ("lab/name"); throws std::invalid_argument listing the names.
const Exercise& find_exercise(const std::vector<Exercise>& all, const std::string& name);

// The exercise a kernel file names on a line "// exercise: lab/name" among its first ten, or "".
std::string exercise_named_in(const std::string& kernel_text);

// A value with 9 significant digits: enough to give a float back exactly.
std::string num(double v);

}  // namespace exercise
