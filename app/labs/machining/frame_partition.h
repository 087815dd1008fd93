// How many positions the machining lab mills a frame (Abecassis 2012, SIMSURF §4.3): a fixed
// count (Positions a frame, §4.3.1), or, with Partition = dynamic, a count fed back from the
// last frame's milling time against a time budget (§4.3.2, compute/machining/partition.h). The
// milling scopes' GPU time and positions come back through the profiler's spans. Shown in the
// panel (two plots), the Timings tab and a headless run's report.
#pragma once
#include "app/labs/machining/params.h"
#include "app/widgets/plot.h"
#include "compute/gpu/profiler.h"
#include "compute/machining/partition.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

class FramePartition {
 public:
  // The positions the next frame mills: the fixed count, or the dynamic partition's next (GPU
  // engines with timestamps only: the CPU engine and a device without them keep the fixed count).
  uint32_t positions(const MachiningKnobs& k, size_t path_positions, bool gpu_engine, bool timestamps);
  // Reads the last resolved frame's milling scopes (their positions and time) and feeds them back;
  // a frame already read is not read again.
  void feed(const gpu::Profiler& prof);
  void restart();
  bool dynamic() const { return dynamic_.has_value(); }
  const machining::PartitionStats& stats() const { return stats_; }
  // A line for the Timings tab and the headless report, "" before the first milled frame.
  std::string note() const;
  std::vector<PlotData> plots() const;
  void panel() const;
  nlohmann::json json() const;

 private:
  std::optional<machining::DynamicPartition> dynamic_;
  std::string why_fixed_;  // dynamic asked for but not possible here
  uint32_t fixed_ = 0;
  machining::PartitionStats stats_;  // every milled frame since the restart
  const gpu::Profiler* read_from_ = nullptr;
  uint64_t read_frame_ = 0;  // read_from_->resolved() when feed() last read it
};
