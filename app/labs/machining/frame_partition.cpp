// SIMSURF §4.3's partitions in the machining lab (frame_partition.h).
#include "app/labs/machining/frame_partition.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace {
constexpr size_t kPlotted = 1000;  // the plots' last frames
}

uint32_t FramePartition::positions(const MachiningKnobs& k, size_t path_positions, bool gpu_engine, bool timestamps) {
  fixed_ = *k.positions_per_frame;
  why_fixed_.clear();
  if (*k.partition == Partition::Dynamic && !gpu_engine)
    why_fixed_ = "the CPU engine mills Positions a frame: the dynamic partition sizes GPU submissions";
  else if (*k.partition == Partition::Dynamic && !timestamps)
    why_fixed_ = "this device's queue has no GPU timestamps: Positions a frame is used";
  if (*k.partition == Partition::Fixed || !why_fixed_.empty()) {
    dynamic_.reset();
    stats_.budget_ms = 0;
    return fixed_;
  }
  const double budget = *k.submission_ms;
  if (!dynamic_ || dynamic_->budget_ms() != budget)  // a new budget goes on from the count reached
    dynamic_.emplace(budget, dynamic_ ? dynamic_->next() : fixed_, uint32_t(std::max<size_t>(path_positions, 1)));
  stats_.budget_ms = budget;
  return dynamic_->next();
}

void FramePartition::feed(const gpu::Profiler& prof) {
  if (read_from_ == &prof && read_frame_ == prof.resolved()) return;
  read_from_ = &prof, read_frame_ = prof.resolved();
  double work = 0, ms = 0;
  for (auto& s : prof.spans())
    if (s.work > 0 && s.name.rfind("machining.", 0) == 0) work += s.work, ms += s.end_ms - s.start_ms;
  if (work <= 0) return;
  stats_.submissions.push_back({uint32_t(work), ms});
  if (dynamic_) dynamic_->feed(uint32_t(work), ms);
}

void FramePartition::restart() {
  stats_.submissions.clear();
  dynamic_.reset();
}

std::string FramePartition::note() const {
  char s[320];
  if (stats_.submissions.empty()) {
    if (why_fixed_.empty()) return "";
    std::snprintf(s, sizeof s, "Partition: %s.", why_fixed_.c_str());
    return s;
  }
  const auto& last = stats_.submissions.back();
  const size_t frames = stats_.submissions.size();
  if (dynamic_)
    std::snprintf(s, sizeof s,
                  "Partition (SIMSURF §4.3.2, dynamic): the last frame milled %u positions in %.3f ms of a %.3g ms "
                  "budget, the next %u; %u of %zu frames over the budget, median %.3f ms.",
                  last.positions, last.ms, dynamic_->budget_ms(), dynamic_->next(), stats_.over_budget(), frames,
                  stats_.median_ms());
  else
    std::snprintf(s, sizeof s,
                  "Partition (SIMSURF §4.3.1, fixed): %u positions a frame, the last in %.3f ms; median %.3f ms, "
                  "longest %.3f ms over %zu frames.%s%s",
                  fixed_, last.ms, stats_.median_ms(), stats_.max_ms(), frames, why_fixed_.empty() ? "" : " ",
                  why_fixed_.c_str());
  return s;
}

std::vector<PlotData> FramePartition::plots() const {
  if (stats_.submissions.empty()) return {};
  const auto& all = stats_.submissions;
  const size_t from = all.size() > kPlotted ? all.size() - kPlotted : 0;
  std::vector<double> x, ms, positions;
  for (size_t i = from; i < all.size(); ++i) {
    x.push_back(double(i + 1));
    ms.push_back(all[i].ms);
    positions.push_back(all[i].positions);
  }
  char budget[64] = "GPU time (ms)";
  if (dynamic_) std::snprintf(budget, sizeof budget, "GPU time (ms; budget %.3g)", dynamic_->budget_ms());
  return {{{"machining-frame-ms", "milling frame", budget, false, 100}, x, ms},
          {{"machining-frame-positions", "milling frame", "positions milled", false, 100}, x, positions}};
}

void FramePartition::panel() const {
  if (!ImGui::CollapsingHeader("Partitions and the watchdog (SIMSURF §4.3)")) return;
  ImGui::TextWrapped(
      "A display's watchdog (chien de garde) stops GPU work that runs too long, so the path is milled a frame at a "
      "time. Fixed (§4.3.1): Positions a frame each. Dynamic (§4.3.2): each frame's measured GPU time sizes the "
      "next, aiming at %.0f%% of the Time budget and growing at most twice a frame; as the report says, nothing "
      "promises that no frame overruns.",
      100 * machining::DynamicPartition::kAim);
  auto n = note();
  if (!n.empty()) ImGui::TextWrapped("%s", n.c_str());
  for (auto& p : plots()) plot(p);
}

nlohmann::json FramePartition::json() const {
  std::vector<uint32_t> positions;
  std::vector<double> ms;
  for (auto& s : stats_.submissions) positions.push_back(s.positions), ms.push_back(s.ms);
  return {{"source", "Abecassis 2012, SIMSURF §4.3"},
          {"partition", dynamic_ ? "dynamic" : "fixed"},
          {"budget_ms", dynamic_ ? nlohmann::json(dynamic_->budget_ms()) : nlohmann::json(nullptr)},
          {"frames", stats_.submissions.size()},
          {"over_budget", stats_.over_budget()},
          {"median_ms", stats_.median_ms()},
          {"max_ms", stats_.max_ms()},
          {"positions", positions},
          {"ms", ms}};
}
