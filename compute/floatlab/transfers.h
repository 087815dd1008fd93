// Host <-> device bandwidth, as CUDA's bandwidthTest measures it (H2D, D2H, D2D), beside the
// seeds' own transfer figures: all three older sources blame the bus for their costs (Bleton
// 2005 §2.5.4, Da Graça 2006 §4.3.1, Abecassis 2012 §2.3.2). One transfer is one
// vkCmdCopyBuffer between a host-visible buffer (mapped for its lifetime: Vulkan's "pinned"
// memory) and a device-local one, or between two device-local buffers; `vklab bench --lab
// floatlab --only transfers` times it with GPU timestamps.
#pragma once
#include "compute/gpu/context.h"
#include "compute/gpu/resources.h"
#include "compute/measure/bench_row.h"

#include <cstdint>
#include <string>
#include <vector>

namespace floatlab {

enum class TransferDirection { H2D, D2H, D2D };

// "h2d", "d2h", "d2d": the rows are "transfers." + this.
const char* transfer_name(TransferDirection direction);

// The source and destination buffers of one direction, the source holding random non-zero words.
class Transfer {
 public:
  // `bytes` a multiple of 4; `seed` draws the source's words (xorshift32, never 0).
  Transfer(gpu::Context& ctx, TransferDirection direction, VkDeviceSize bytes, uint32_t seed = 1);

  // One copy of the whole source into the destination, after a barrier that orders it behind
  // the previous copy (and whatever wrote the buffers before).
  void record(VkCommandBuffer cmd) const;

  struct Check {
    uint64_t words = 0, wrong = 0;  // words compared, words that differ from the source's
    uint64_t first_wrong = 0;       // the first that differs (where wrong > 0)
    uint32_t first_sent = 0, first_arrived = 0;
  };
  // Fills the destination with the complement of the source's words, copies once (record; not
  // with copy = false, which shows what a lost copy looks like), reads the destination back and
  // compares every word with the source's.
  Check check(bool copy = true);
  // Every word of `arrived` against `sent` (a shorter `arrived` counts the missing words wrong).
  static Check compare(const std::vector<uint32_t>& sent, const std::vector<uint32_t>& arrived);

  const std::vector<uint32_t>& sent() const { return words_; }
  VkDeviceSize bytes() const { return bytes_; }
  TransferDirection direction() const { return direction_; }
  // Bytes of memory traffic a copy counts, as bandwidthTest counts them: the size once for H2D
  // and D2H (one crossing of the bus), twice for D2D (read and write of device memory).
  double counted_bytes() const { return direction_ == TransferDirection::D2D ? 2.0 * bytes_ : double(bytes_); }

 private:
  std::vector<uint32_t> read_destination() const;

  gpu::Context& ctx_;
  TransferDirection direction_;
  VkDeviceSize bytes_;
  std::vector<uint32_t> words_;
  gpu::Buffer src_, dst_;
};

// The seeds' transfer figures for a direction, in GB/s (1 Mo/s read as 10^6 bytes/s), each with
// its source, section, machine and the words it is given in, as a JSON array; empty for none.
nlohmann::json seed_transfer_figures(TransferDirection direction);

// The sizes the rows use: quick 64 KiB and 1 MiB; else 1, 16 and 256 MiB (64 MiB in place of
// 256 on a CPU implementation such as lavapipe, where a copy is a memcpy on the host).
std::vector<VkDeviceSize> transfer_sizes(const gpu::Context& ctx, bool quick);

// The rows "transfers.h2d", "transfers.d2h", "transfers.d2d" over transfer_sizes(): median of
// several copies timed with GPU timestamps, each direction checked word for word after timing
// (throws std::runtime_error where a word did not arrive); the reference is the seeds' figures
// for H2D and D2H, the device's saxpy (options.saxpy_gbps) for D2D with the seed's beside.
void transfer_rows(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);

}  // namespace floatlab
