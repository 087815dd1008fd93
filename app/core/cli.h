// Command line: vklab [window] | --headless | bench | LAB --VERB | exercise --check FILE |
// --list-devices | --list-presets | --list-exercises | --help, turned into Options (what each
// mode runs with).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct Options {
  enum class Mode {
    Window,
    Headless,
    Bench,
    LabVerb,
    Exercise,  // vklab exercise --check FILE
    ListDevices,
    ListPresets,
    ListExercises,
    Help
  } mode = Mode::Window;
  std::string lab;       // "" = the first lab
  std::string verb;      // LabVerb: the lab's extra command (`vklab LAB --VERB`), e.g. "--report"
  uint64_t steps = 100;  // headless: simulation steps
  std::string capture;   // PNG path (headless: the offscreen target; window: last frame)
  std::vector<std::pair<std::string, std::string>> plots;  // headless: --plot NAME=FILE.png (and FILE.csv)
  std::string record;  // headless: FILE.mp4 (H.264) or DIR/ (numbered PNGs), a frame a submission
  int record_fps = 30;
  std::string dump;               // headless: directory for .npy + params.json
  std::string out;                // bench, a lab's verb: JSON path
  std::string preset;             // --preset FILE|NAME: a preset file, params.json or a shipped preset
  std::vector<std::string> sets;  // name=value for the lab's parameters (applied after the preset)
  std::string device;
  std::string memory;              // --memory (compute/gpu/memory.h); "": pooled, dedicated under RenderDoc
  bool memory_experiment = false;  // bench --memory-experiment
  uint64_t memory_budget_mib = 0;  // --memory-budget: GPU memory the app may take (0: what the device has)
  uint32_t gpu_timeout_s = 60;     // --gpu-timeout: the longest wait for one submission
  uint32_t soak_s = 0;             // --soak: the window visits every lab and preset twice in this time
  bool validate = false;           // --validate: the validation layers on, their messages counted
  bool portability = false;        // --portability: the device as MoltenVK would offer it (docs/MACOS.md)
  bool occupancy = false;  // headless: the kernels' registers and occupancy (compute/measure/kernel_statistics.h)
  bool quick = false;      // bench: small sizes only
  std::vector<std::string> only;     // bench: just these configurations (--only a,b)
  std::vector<std::string> engines;  // bench: just these engines (--engines a,b)
  std::string sweep;                 // bench: NAME=FROM:TO:COUNT[:log], one lab's parameter swept
  uint64_t sweep_steps = 20;         // bench: steps measured at each value of the sweep
  int runs = 1;                      // bench: whole benches, each in a fresh process (--runs N)
  bool remeasure_peaks = false;      // bench: measure the roofline's peaks again (else the cached ones)
  bool remeasure_cpu = false;        // bench: time the CPU references again (else this machine's kept ones)
  int renderdoc_captures = 0;        // --renderdoc-capture N: frames, steps or bench rows (gpu/renderdoc.h)
  std::vector<std::string> args;     // the command line as given (bench --runs reruns it)
  uint32_t width = 1280, height = 800;
  uint64_t frames = 0;                         // window: quit after this many frames (0 = when closed)
  std::vector<std::pair<uint64_t, int>> keys;  // window: --keys FRAME:KEY,... (GLFW key codes; a test aid)
  bool shake = false;                          // window: resize, minimise and toggle vsync during --frames (a test aid)
  std::string exercise;       // --exercise NAME: the window opens it; exercise --check: the one to check against
  std::string exercise_file;  // window: the kernel file of --exercise (default: the user's copy, app/core/exercises.h)
  std::string check_file;     // exercise --check FILE
  bool vsync = true;
  bool legend = true;
  bool present = false;         // window: start in presentation mode (the picture alone)
  bool with_interface = false;  // window: captures and recordings include the sidebar and the bar
  std::string tab;  // window: the sidebar tab shown first (Lab, Timings, Picture, Bench, Inspect, Exercise, Help)
};

Options parse_cli(int argc, char** argv);  // throws UsageError
std::string usage();
