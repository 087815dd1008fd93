// Shipped exercises read from their folders (exercise.h).
#include "compute/exercise/exercise.h"

#include "compute/io/input.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace exercise {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  try {
    return io::read_input(p, 16 << 20);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
}

}  // namespace

std::string Exercise::task() const { return read_text(dir / "task.md"); }
std::string Exercise::start() const { return read_text(dir / "start.comp"); }
std::string Exercise::solution() const { return read_text(dir / "solution.comp"); }

Exercise load_exercise(const fs::path& dir) {
  fs::path file = dir / "check.json";
  Exercise e;
  e.dir = dir;
  e.lab = dir.parent_path().parent_path().filename().string();
  e.name = e.lab + "/" + dir.filename().string();
  try {
    auto j = nlohmann::json::parse(read_text(file));
    e.title = j.at("title").get<std::string>();
    e.source = j.at("source").get<std::string>();
    e.op = j.at("operator").get<std::string>();
    find_operator(e.op);  // throws for an unknown one
    e.tolerance.ulps = j.at("tolerance").at("ulps").get<double>();
    e.tolerance.what = j.at("tolerance").at("what").get<std::string>();
    if (!(e.tolerance.ulps >= 0)) throw std::invalid_argument("tolerance.ulps must be 0 or more");
    e.live = j.value("live", true);
    const nlohmann::json lab = j.value("lab", nlohmann::json::object());
    if (!lab.is_object()) throw std::invalid_argument("\"lab\" must be an object of the lab's knobs");
    for (auto& [knob, value] : lab.items())
      e.lab_settings.push_back(knob + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    for (auto& c : j.at("cases")) {
      Case k;
      k.name = c.at("name").get<std::string>();
      k.why = c.value("why", "");
      k.seed = c.value("seed", 1u);
      k.values = c;
      e.cases.push_back(std::move(k));
    }
    if (e.cases.empty()) throw std::invalid_argument("no cases");
  } catch (const nlohmann::json::exception& x) {
    throw std::invalid_argument(file.string() + ": " + x.what());
  } catch (const std::invalid_argument& x) {
    throw std::invalid_argument(file.string() + ": " + x.what());
  }
  for (const char* f : {"task.md", "start.comp", "solution.comp"})
    if (!fs::exists(dir / f)) throw std::invalid_argument((dir / f).string() + ": missing");
  return e;
}

std::vector<Exercise> load_exercises(const fs::path& root) {
  std::vector<Exercise> all;
  if (!fs::is_directory(root)) return all;
  for (auto& lab : fs::directory_iterator(root))
    if (fs::is_directory(lab.path() / "exercises"))
      for (auto& ex : fs::directory_iterator(lab.path() / "exercises"))
        if (ex.is_directory() && fs::exists(ex.path() / "check.json")) all.push_back(load_exercise(ex.path()));
  std::sort(all.begin(), all.end(), [](const Exercise& a, const Exercise& b) { return a.name < b.name; });
  return all;
}

const Exercise& find_exercise(const std::vector<Exercise>& all, const std::string& name) {
  for (auto& e : all)
    if (e.name == name) return e;
  std::string known;
  for (auto& e : all) known += (known.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown exercise '" + name + "' (exercises: " + known + ")");
}

std::string exercise_named_in(const std::string& kernel_text) {
  std::istringstream in(kernel_text);
  std::string line;
  const std::string tag = "// exercise:";
  for (int n = 0; n < 10 && std::getline(in, line); ++n) {
    size_t at = line.find(tag);
    if (at == std::string::npos) continue;
    std::string name = line.substr(at + tag.size());
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t\r") + 1);
    name = name.substr(0, name.find_first_of(" \t"));
    return name;
  }
  return "";
}

// A value with 9 significant digits (a float's round trip).
std::string num(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

}  // namespace exercise
