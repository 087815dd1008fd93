// The CPU references' times kept per machine (cpu_baselines.h).
#include "compute/measure/cpu_baselines.h"
#include "compute/io/platform.h"

#include "compute/io/input.h"
#include "compute/io/output.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

namespace gpu {

namespace {

// Raised when the CPU references change what they time: older figures are then timed again.
constexpr int kVersion = 1;

std::string today() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

nlohmann::json load_baselines(const std::filesystem::path& file) {
  std::error_code ec;
  if (file.empty() || !std::filesystem::exists(file, ec)) return nlohmann::json::object();
  try {
    auto j = nlohmann::json::parse(io::read_input(file, 16 << 20));
    if (j.value("version", 0) == kVersion && j.at("machines").is_object()) return j;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: %s: %s (the CPU references will be timed again)\n", platform::utf8(file).c_str(),
                 e.what());
  }
  return nlohmann::json::object();
}

}  // namespace

std::string cpu_machine() {
  std::string model = "unknown CPU";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(' ', colon + 1));
      break;
    }
  return model + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads";
}

CpuBaselines::CpuBaselines(std::filesystem::path file, bool remeasure) : file_(std::move(file)) {
  if (remeasure) return;
  auto j = load_baselines(file_);
  if (j.contains("machines") && j["machines"].contains(machine_)) entries_ = j["machines"][machine_];
}

double CpuBaselines::ms(const std::string& key, const std::function<double()>& time) {
  if (auto it = entries_.find(key); it != entries_.end() && it->contains("ms")) {
    ++read_;
    return it->at("ms").get<double>();
  }
  double ms = time();
  ++timed_;
  if (!file_.empty() && ms > 0) entries_[key] = {{"ms", ms}, {"date", today()}};
  return ms;
}

void CpuBaselines::save() const {
  if (file_.empty() || timed_ == 0) return;
  auto j = load_baselines(file_);
  if (!j.contains("machines")) j = {{"version", kVersion}, {"machines", nlohmann::json::object()}};
  j["machines"][machine_] = entries_;
  try {
    if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path());
    io::write_file(file_, j.dump(1) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: could not keep the CPU references' times in %s: %s\n", platform::utf8(file_).c_str(),
                 e.what());
  }
}

nlohmann::json CpuBaselines::describe() const {
  return {{"file", file_.string()}, {"machine", machine_}, {"read_from_file", read_}, {"timed_now", timed_}};
}

}  // namespace gpu
