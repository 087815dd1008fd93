#include "app/core/cli.h"

#include "app/core/exercises.h"
#include "app/core/keys.h"
#include "app/core/presets.h"
#include "app/core/registry.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace {

uint64_t parse_count(const std::string& flag, const std::string& v, uint64_t min, uint64_t max) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || v[0] == '-' || n < min || n > max)
    throw UsageError("bad value '" + v + "' for " + flag + " (expected an integer in " + std::to_string(min) + ".." +
                     std::to_string(max) + ")");
  return n;
}

void parse_size(const std::string& v, uint32_t& w, uint32_t& h) {
  auto x = v.find('x');
  if (x == std::string::npos) throw UsageError("bad value '" + v + "' for --size (expected WxH, e.g. 1280x800)");
  w = uint32_t(parse_count("--size width", v.substr(0, x), 16, 16384));
  h = uint32_t(parse_count("--size height", v.substr(x + 1), 16, 16384));
}

const Shorthand* find_shorthand(const std::string& flag) {
  for (auto& e : lab_entries())
    for (auto& sh : e.shorthands)
      if (sh.flag == flag) return &sh;
  return nullptr;
}

// "  --FLAG VALUE        LAB: --set PARAM=VALUE; VALUE: WHAT", one line a shorthand.
std::string shorthand_help() {
  std::string text;
  for (size_t i = 0; i < lab_entries().size(); ++i)
    for (auto& sh : lab_entries()[i].shorthands) {
      std::string left = "  " + sh.flag + " VALUE";
      left.resize(std::max<size_t>(left.size() + 1, 22), ' ');
      text += left + lab_names()[i] + ": --set " + sh.param + "=VALUE; VALUE: " + sh.value + "\n";
    }
  return text;
}

// The window's keys, one line each.
std::string key_help() {
  std::string text;
  for (auto& k : window_keys()) {
    std::string left = std::string("  ") + k.keys;
    left.resize(std::max<size_t>(left.size() + 1, 14), ' ');
    text += left + k.what + "\n";
  }
  return text;
}

// "  vklab LAB --VERB [...]   what it does", one line a lab's verb.
std::string verb_help() {
  std::string text;
  for (size_t i = 0; i < lab_entries().size(); ++i)
    for (auto& v : lab_entries()[i].verbs) {
      std::string left = "  vklab " + lab_names()[i] + " " + v.flag + (v.usage.empty() ? "" : " " + v.usage);
      left.resize(std::max<size_t>(left.size() + 2, 47), ' ');
      text += left + v.what + "\n";
    }
  return text;
}

const LabVerb* find_verb(const std::string& lab, const std::string& flag) {
  for (size_t i = 0; i < lab_entries().size(); ++i)
    if (lab_names()[i] == lab)
      for (auto& v : lab_entries()[i].verbs)
        if (v.flag == flag) return &v;
  return nullptr;
}

}  // namespace

std::string usage() {
  std::string labs;
  for (auto& n : lab_names()) labs += (labs.empty() ? "" : ", ") + n;
  return "vklab: a Vulkan compute laboratory\n"
         "\n"
         "usage:\n"
         "  vklab [--lab NAME] [options]                 open the window\n"
         "  vklab --headless --lab NAME --steps N [--capture out.png] [--dump DIR] [options]\n"
         "  vklab bench [--lab NAME] [--out results.json] [--quick] [options]\n" +
         verb_help() +
         "  vklab exercise --check FILE [--exercise NAME] check a kernel against its exercise headless (exit 0\n"
         "                                               it passes, 5 it does not); NAME: its line '// exercise:'\n"
         "  vklab --list-devices\n"
         "  vklab --list-presets                         the shipped presets, one a line\n"
         "  vklab --list-exercises                       the shipped exercises, one a line\n"
         "\n"
         "options:\n"
         "  --lab NAME          lab to run (" +
         labs +
         ")\n"
         "  --preset FILE|NAME  start from a preset: a file ({\"lab\": ..., \"params\": {...}}; a --dump's\n"
         "                      params.json is one) or a shipped one (lab/name, see --list-presets);\n"
         "                      it picks the lab, --set changes its values after\n"
         "  --set NAME=VALUE    set a lab parameter (repeatable); --help --lab NAME lists them\n"
         "  --steps N           headless: simulation steps (default 100)\n"
         "  --capture PATH      write a PNG: headless, the offscreen picture; window, the last frame\n"
         "  --dump DIR          headless: write the lab's state as .npy files and params.json\n"
         "  --occupancy         headless: each kernel the run made, its registers and shared memory as the\n"
         "                      driver gives them (VK_KHR_pipeline_executable_properties) and its occupancy\n"
         "                      by SIMSURF's rules (Abecassis 2012, 12.2); with --dump, also in params.json\n"
         "  --plot NAME=FILE    headless: one of the lab's panel plots as a picture of its own, the run's size,\n"
         "                      and FILE's .csv (an unknown NAME lists the lab's plots)\n" +
         shorthand_help() +
         "  --record OUT        record to OUT.mp4 (H.264) or OUT/ (numbered PNGs, each with its run):\n"
         "                      headless a frame a submission, the window every frame of the picture\n"
         "  --record-fps N      the video's frame rate (default 30)\n"
         "  --size WxH          picture / window size (default 1280x800)\n"
         "  --no-legend         leave out the legend drawn into the picture (lab, step, key values, colour bar)\n"
         "  --device N|NAME     choose a device by index or name substring (see --list-devices)\n"
         "  --validate          turn on the Khronos validation layer, print each message once\n"
         "  --portability       use the device as MoltenVK would offer it on a Mac: no fp64 in shaders, no\n"
         "                      64-bit atomics (what each lab does then: docs/MACOS.md)\n"
         "  --frames N          window: quit after N frames\n"
         "  --no-vsync          window: start without vsync\n"
         "  --present           window: open in presentation mode, the picture alone (P toggles it)\n"
         "  --with-interface    window: captures and recordings take the whole window, sidebar and bar\n"
         "                      included (by default they take the picture alone, as headless does)\n"
         "  --tab NAME          window: show this sidebar tab first (Lab, Timings, Picture, Bench, Inspect,\n"
         "                      Exercise, Help)\n"
         "  --exercise NAME     window: open the exercise NAME (lab/name, see --list-exercises) in the\n"
         "                      Exercise tab, its kernel in a file of yours (~/vklab-exercises/,\n"
         "                      Documents\\vklab-exercises\\ on Windows, or $VKLAB_EXERCISE_DIR),\n"
         "                      watched and checked on every save; the lab opens with the knobs\n"
         "                      under which it can run the kernel (--set overrides them)\n"
         "  --exercise-file F   window, with --exercise: the kernel file to edit (made from the exercise's\n"
         "                      starting kernel if it does not exist)\n"
         "  --shake             window, with --frames: resize, minimise and toggle vsync (test aid)\n"
         "  --soak S            window: every lab at its defaults and with each preset, 3 times over, in S\n"
         "                      seconds; exits 1 if the heap (not judged with --validate), GPU memory or\n"
         "                      the frame time grew (test aid)\n"
         "  --keys F:KEY,...    window, with --frames: press KEY at frame F (space, s, right, left, r, c,\n"
         "                      v, i, tab, b, p, f11, escape, f1, a lab's digit; up, down, home, end, enter\n"
         "                      move in the kernel editor; test aid)\n"

         "  --out PATH          bench: write the results as JSON\n"
         "  --quick             bench: small sizes only\n"
         "  --only A,B          bench: just these configurations (a lab's help page names them)\n"
         "  --engines A,B       bench: just these engines or variants (a lab's help page names them)\n"
         "  --memory M          how buffers and images get GPU memory: pooled (default: 256 MiB blocks,\n"
         "                      2 MiB alignment), pooled:ALIGN[:BLOCK_MIB] or dedicated (one allocation\n"
         "                      each); for the allocation experiment of docs/PERF.md\n"
         "  --memory-budget MIB the GPU memory vklab may take, as if the device had no more: a lab that\n"
         "                      needs more is refused and the running one kept (try a small GPU's limits)\n"
         "  --gpu-timeout S     the longest wait for the GPU to finish one submission (default 60 s); past\n"
         "                      it (or when the device is lost) vklab says so, saves the run's parameters\n"
         "                      in ./vklab-rescued-LAB.json and, headless, exits with code 4 (the window\n"
         "                      makes a lost device anew and rebuilds the lab, paused)\n"
         "  --memory-experiment bench: saxpy over fresh allocations, trial after trial, by array size and\n"
         "                      allocation strategy (docs/PERF.md); with --quick, small arrays\n"
         "  --runs N            bench: N whole benches, each in a fresh process; rows get min / median / max\n"
         "                      over the runs and their spread\n"
         "  --sweep N=A:B:K     bench: parameter N of --lab at K values from A to B (append :log for a\n"
         "                      log spacing); at each, the lab runs and its GPU time a step is measured\n"
         "  --sweep-steps N     bench --sweep: steps measured at each value (default 20)\n"
         "  --remeasure-peaks   bench: measure the device's roofs again (fp32/fp64 multiply-add, saxpy and\n"
         "                      copy bandwidth; else those cached per device and driver beside the settings)\n"
         "  --remeasure-cpu     bench: time the CPU references again (else those kept for this machine's CPU\n"
         "                      beside the settings; a quick bench always times them)\n"
         "  --renderdoc-capture N  under RenderDoc: capture N frames (window), N steps (headless) or one\n"
         "                      application of each of the first N rows (bench); without RenderDoc it says how\n"
         "  --help              this text\n"
         "\nwindow keys:\n" +
         key_help() +
         "\nexit codes: 0 done, 2 bad usage or parameter (or sizes past the device's limits), 1 unreadable or\n"
         "malformed file (or another runtime failure), 3 the simulation stopped on a blow-up (NaN/inf or\n"
         "unbounded growth), 4 the GPU did not finish in time or was lost (--gpu-timeout), 5 (vklab\n"
         "exercise --check) the kernel fails its check: it does not compile, is wrong or was stopped\n";
}

// "a,b , c" -> {"a", "b", "c"}; empty items dropped.
static std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// One flag a line; then the checks that need all of them.
Options parse_cli(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  o.args = args;
  size_t i = 0;
  if (!args.empty() && args[0] == "bench") {
    o.mode = Options::Mode::Bench;
    i = 1;
  } else if (!args.empty() && args[0] == "exercise") {
    o.mode = Options::Mode::Exercise;
    i = 1;
  } else if (!args.empty() && std::find(lab_names().begin(), lab_names().end(), args[0]) != lab_names().end()) {
    // vklab LAB --VERB: a lab's own command, declared by its registry entry
    std::string verbs;
    for (size_t k = 0; k < lab_names().size(); ++k)
      if (lab_names()[k] == args[0])
        for (auto& v : lab_entries()[k].verbs) verbs += (verbs.empty() ? "" : " or ") + v.flag;
    if (args.size() < 2 || !find_verb(args[0], args[1]))
      throw UsageError(verbs.empty() ? "the " + args[0] + " lab has no command of its own (try --lab " + args[0] + ")"
                                     : args[0] + " needs " + verbs);
    o.mode = Options::Mode::LabVerb;
    o.lab = args[0];
    o.verb = args[1];
    i = 2;
  }
  auto value = [&](const std::string& flag) -> std::string {
    if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
    return args[++i];
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h")
      o.mode = Options::Mode::Help;
    else if (a == "--headless") {
      if (o.mode == Options::Mode::Bench || o.mode == Options::Mode::LabVerb)
        throw UsageError("--headless does not go with bench or a lab's command (they are always headless)");
      o.mode = Options::Mode::Headless;
    } else if (a == "--list-devices")
      o.mode = Options::Mode::ListDevices;
    else if (a == "--list-presets")
      o.mode = Options::Mode::ListPresets;
    else if (a == "--list-exercises")
      o.mode = Options::Mode::ListExercises;
    else if (a == "--check") {
      if (o.mode != Options::Mode::Exercise) throw UsageError("--check goes with 'vklab exercise --check FILE'");
      o.check_file = value(a);
    } else if (a == "--exercise")
      o.exercise = value(a);
    else if (a == "--exercise-file")
      o.exercise_file = value(a);
    else if (a == "--preset")
      o.preset = value(a);
    else if (a == "--lab") {
      o.lab = value(a);
      if (std::find(lab_names().begin(), lab_names().end(), o.lab) == lab_names().end()) {
        std::string known;
        for (auto& n : lab_names()) known += (known.empty() ? "" : ", ") + n;
        throw UsageError("unknown lab '" + o.lab + "' (labs: " + known + ")");
      }
    } else if (a == "--steps")
      o.steps = parse_count(a, value(a), 0, 1000000000ull);
    else if (a == "--capture")
      o.capture = value(a);
    else if (a == "--plot") {
      std::string v = value(a);
      auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        throw UsageError("--plot takes NAME=FILE.png (NAME: a plot of the lab's panel)");
      o.plots.push_back({v.substr(0, eq), v.substr(eq + 1)});
    } else if (a == "--record")
      o.record = value(a);
    else if (a == "--record-fps")
      o.record_fps = int(parse_count(a, value(a), 1, 240));
    else if (a == "--dump")
      o.dump = value(a);
    else if (a == "--out")
      o.out = value(a);
    else if (a == "--set")
      o.sets.push_back(value(a));
    else if (auto* sh = find_shorthand(a))  // a lab's shorthand for --set
      o.sets.push_back(sh->param + "=" + value(a));
    else if (a == "--device")
      o.device = value(a);
    else if (a == "--memory-experiment")
      o.memory_experiment = true;
    else if (a == "--memory")
      o.memory = value(a);  // checked where the context is made (app/core/session.cpp, context_options)
    else if (a == "--memory-budget")
      o.memory_budget_mib = parse_count(a, value(a), 1, 1u << 24);
    else if (a == "--gpu-timeout")
      o.gpu_timeout_s = uint32_t(parse_count(a, value(a), 1, 3600));
    else if (a == "--validate")
      o.validate = true;
    else if (a == "--portability")
      o.portability = true;
    else if (a == "--occupancy")
      o.occupancy = true;
    else if (a == "--quick")
      o.quick = true;
    else if (a == "--only")
      o.only = split_list(value(a));
    else if (a == "--engines")
      o.engines = split_list(value(a));
    else if (a == "--runs")
      o.runs = int(parse_count(a, value(a), 1, 100));
    else if (a == "--sweep")
      o.sweep = value(a);
    else if (a == "--remeasure-peaks")
      o.remeasure_peaks = true;
    else if (a == "--remeasure-cpu")
      o.remeasure_cpu = true;
    else if (a == "--renderdoc-capture")
      o.renderdoc_captures = int(parse_count(a, value(a), 1, 1000));
    else if (a == "--sweep-steps")
      o.sweep_steps = parse_count(a, value(a), 1, 100000);
    else if (a == "--size")
      parse_size(value(a), o.width, o.height);
    else if (a == "--frames")
      o.frames = parse_count(a, value(a), 1, 100000000ull);
    else if (a == "--shake")
      o.shake = true;
    else if (a == "--soak")
      o.soak_s = uint32_t(parse_count(a, value(a), 10, 24 * 3600));
    else if (a == "--keys")
      for (auto& item : split_list(value(a))) {
        auto colon = item.find(':');
        if (colon == std::string::npos) throw UsageError("--keys takes FRAME:KEY items, not '" + item + "'");
        uint64_t frame = parse_count(a, item.substr(0, colon), 0, 100000000ull);
        try {
          o.keys.push_back({frame, key_code(item.substr(colon + 1))});
        } catch (const std::invalid_argument& e) {
          throw UsageError(e.what());
        }
      }
    else if (a == "--tab") {
      o.tab = value(a);
      const char* tabs[] = {"Lab", "Timings", "Picture", "Bench", "Inspect", "Exercise", "Help"};
      if (std::find(std::begin(tabs), std::end(tabs), o.tab) == std::end(tabs))
        throw UsageError("unknown tab '" + o.tab + "' (tabs: Lab, Timings, Picture, Bench, Inspect, Exercise, Help)");
    } else if (a == "--present")
      o.present = true;
    else if (a == "--with-interface")
      o.with_interface = true;
    else if (a == "--no-legend")
      o.legend = false;
    else if (a == "--no-vsync")
      o.vsync = false;
    else if (a == "bench" || a == "exercise")
      throw UsageError("'" + a + "' must come first: vklab " + a + " [options]");
    else
      throw UsageError("unknown option '" + a + "'");
  }
  if (!o.preset.empty()) {  // the preset picks the lab; --lab may only agree with it
    Preset p;
    try {
      p = find_preset(o.preset);
    } catch (const ParamError& e) {
      throw UsageError(e.what());
    }
    if (!o.lab.empty() && o.lab != p.lab)
      throw UsageError("preset " + p.name + " is for lab '" + p.lab + "', not '" + o.lab + "'");
    o.lab = p.lab;
  }
  if (o.mode == Options::Mode::Exercise && o.check_file.empty())
    throw UsageError("vklab exercise needs --check FILE (the kernel to check)");
  if (!o.exercise.empty() && o.mode == Options::Mode::Window) {  // the exercise's lab opens with it
    std::string lab = o.exercise.substr(0, o.exercise.find('/'));
    if (std::find(lab_names().begin(), lab_names().end(), lab) == lab_names().end())
      throw UsageError("--exercise takes lab/name (see vklab --list-exercises), not '" + o.exercise + "'");
    if (!o.lab.empty() && o.lab != lab && o.preset.empty())
      throw UsageError("exercise " + o.exercise + " is for lab '" + lab + "', not '" + o.lab + "'");
    o.lab = lab;
    if (o.preset.empty()) {  // the knobs under which the lab runs the kernel, before the user's --set
      try {
        const auto& settings = shipped_exercise(o.exercise).lab_settings;
        o.sets.insert(o.sets.begin(), settings.begin(), settings.end());
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--exercise: ") + e.what());
      } catch (const std::runtime_error&) {  // no exercises folder, or a malformed one: the tab says which
      }
    }
  }
  if (!o.exercise_file.empty() && (o.exercise.empty() || o.mode != Options::Mode::Window))
    throw UsageError("--exercise-file goes with --exercise NAME in the window");
  if (!o.exercise.empty() && o.mode != Options::Mode::Window && o.mode != Options::Mode::Exercise)
    throw UsageError("--exercise goes with the window or 'vklab exercise --check FILE'");
  if (o.lab.empty() && o.mode != Options::Mode::Bench) o.lab = lab_names().front();
  if (!o.out.empty() && o.mode != Options::Mode::Bench && o.mode != Options::Mode::LabVerb)
    throw UsageError("--out goes with bench or a lab's command");
  if (!o.dump.empty() && o.mode != Options::Mode::Headless) throw UsageError("--dump needs --headless");
  if (o.occupancy && o.mode != Options::Mode::Headless)
    throw UsageError("--occupancy needs --headless (the window shows it in the Timings tab)");
  if (!o.record.empty() && o.mode != Options::Mode::Headless && o.mode != Options::Mode::Window)
    throw UsageError("--record goes with --headless or the window");
  if ((!o.only.empty() || !o.engines.empty() || !o.sweep.empty()) && o.mode != Options::Mode::Bench)
    throw UsageError("--only, --engines and --sweep go with bench");
  if (o.runs > 1 && (o.mode != Options::Mode::Bench || !o.sweep.empty()))
    throw UsageError("--runs goes with bench (not with --sweep)");
  if (!o.sweep.empty() && o.lab.empty())
    throw UsageError("--sweep needs --lab NAME (the lab whose parameter it sweeps)");
  if (o.shake && o.frames == 0) throw UsageError("--shake needs --frames N");
  if (!o.keys.empty() && o.frames == 0) throw UsageError("--keys needs --frames N");
  return o;
}
