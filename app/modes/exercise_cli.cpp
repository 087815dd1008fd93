#include "app/modes/exercise_cli.h"

#include "app/core/exercises.h"
#include "app/core/session.h"
#include "compute/exercise/check.h"

#include <cstdio>

int list_exercises() {
  for (auto& e : shipped_exercises()) std::printf("%-28s %s (%s)\n", e.name.c_str(), e.title.c_str(), e.source.c_str());
  return 0;
}

int run_exercise_check(const Options& o) {
  std::string text;
  try {
    text = read_text_file(o.check_file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: %s\n", e.what());
    return 1;
  }
  std::string name = o.exercise.empty() ? exercise::exercise_named_in(text) : o.exercise;
  if (name.empty()) {
    std::fprintf(stderr,
                 "vklab: %s names no exercise: give --exercise NAME, or keep its line '// exercise: NAME' "
                 "(vklab --list-exercises lists them)\n",
                 o.check_file.c_str());
    return 2;
  }
  const exercise::Exercise& e = shipped_exercise(name);  // std::invalid_argument: exit 2
  gpu::Context ctx(context_options(o));
  try {
    exercise::Report r = exercise::check_source(ctx, e, text, o.check_file);
    std::fputs(exercise::format_report(e, r).c_str(), stdout);
    if (!ctx.validation_enabled()) std::printf("(validation off: --validate checks the kernel's Vulkan use too)\n");
    std::fflush(stdout);
    return r.pass ? 0 : 5;
  } catch (const gpu::GpuFailure& f) {
    std::fprintf(stderr, "vklab: GPU failure while checking %s: %s\n", o.check_file.c_str(), f.what());
    std::fflush(stderr);
    std::_Exit(4);  // the device's objects are left to the process's end (gpu::Context::failed)
  }
}
