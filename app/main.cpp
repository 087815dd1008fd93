// vklab: parse the command line, run the chosen mode, map failures to exit codes
// (2: bad usage or input, 1: runtime failure).
#include "app/core/presets.h"
#include "app/modes/exercise_cli.h"
#include "app/modes/modes.h"
#include "app/window/window.h"
#include "compute/io/interrupt.h"
#include "compute/io/platform.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace {

int run(const Options& o) {
  switch (o.mode) {
    case Options::Mode::Help:
      std::cout << usage();
      if (!o.lab.empty())
        std::cout << "\nparameters of lab '" << o.lab << "':\n" << make_lab(o.lab)->params().describe();
      return 0;
    case Options::Mode::ListPresets:
      for (auto& p : shipped_presets()) std::printf("%-26s %s\n", p.name.c_str(), p.what.c_str());
      return 0;
    case Options::Mode::ListExercises:
      return list_exercises();
    case Options::Mode::Exercise:
      return run_exercise_check(o);
    case Options::Mode::ListDevices:
      std::cout << gpu::format_device_table(gpu::list_devices(o.portability));
      return 0;
    case Options::Mode::Headless:
      return run_headless(o);
    case Options::Mode::Bench:
      return o.runs > 1 ? run_bench_runs(o) : run_bench(o);
    case Options::Mode::LabVerb:
      for (size_t i = 0; i < lab_names().size(); ++i)
        if (lab_names()[i] == o.lab)
          for (auto& v : lab_entries()[i].verbs)
            if (v.flag == o.verb) return v.run(o);
      return 2;  // parse_cli accepts only declared verbs
    case Options::Mode::Window:
      return run_window(o);
  }
  return 0;
}

// Every failure ends here, as one line: 2 for bad usage or a bad parameter, 1 for the rest (a
// file that cannot be read or is malformed among them: docs/CLI.md's exit codes).
int guarded(int argc, char** argv) {
  if (auto note = platform::prepare_console(); !note.empty()) std::fprintf(stderr, "vklab: %s\n", note.c_str());
  try {
    Options o;
    try {
      o = parse_cli(argc, argv);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "vklab: %s (see vklab --help)\n", e.what());
      return 2;
    }
    io::install_interrupt_handlers();
    return run(o);
  } catch (const ParamError& e) {
    std::fprintf(stderr, "vklab: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "vklab: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "vklab: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: error: %s\n", e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "vklab: error: an unknown failure\n");
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int code = guarded(argc, argv);
  // A kernel given up on may still run on the GPU: exit()'s destructors would run under it.
  if (gpu::abandoned_work_running()) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
