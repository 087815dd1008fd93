// The CPU references' times, kept per machine like the roofs (roofline.h): a bench times each
// CPU reference once on a machine and reads it back afterwards, so a second bench spends its time on
// the GPU. Keyed by the CPU's model and thread count and by the row's own key ("linalg/banded/4096");
// `vklab bench --remeasure-cpu` times them again. The file lives beside the settings
// (app/core/settings.h); a damaged file is timed again and rewritten.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace gpu {

// This machine's CPU as the file keys it: its model name and its threads.
std::string cpu_machine();

class CpuBaselines {
 public:
  // Nothing kept: every reference is timed (tests, a quick bench).
  CpuBaselines() = default;
  // Kept in `file`; `remeasure`: time every reference again and replace what the file holds.
  CpuBaselines(std::filesystem::path file, bool remeasure);

  // The time of `key` in ms: this machine's kept figure, else `time()` now, kept.
  double ms(const std::string& key, const std::function<double()>& time);
  bool has(const std::string& key) const { return entries_.contains(key); }
  // Writes this machine's figures (the other machines' are kept); a failure is said, not thrown.
  void save() const;
  // What the bench's JSON says: the file, the machine, how many figures were read and timed.
  nlohmann::json describe() const;
  int read() const { return read_; }
  int timed() const { return timed_; }

 private:
  std::filesystem::path file_;
  std::string machine_ = cpu_machine();
  nlohmann::json entries_ = nlohmann::json::object();  // key -> {ms, date}
  int read_ = 0, timed_ = 0;
};

}  // namespace gpu
