// GMlib's instances and devices (Maréchal 2020, GmlInit): an instance of the library drives one
// device; several may be open at once, on one device or on several, and "a user who wants to
// combine several GPUs must distribute the computation between the cards himself". That
// distribution: the mesh's vertices split into parts along its longest axis (coordinate
// bisection), each part on its own device context (its own Vulkan instance and logical device,
// as a GMlib instance), holding the vertices it owns and, as a halo, the neighbours it reads that
// another part owns. A step smooths every part's owned values from its own and its halo's, then
// each part packs what the others read of it, and the host carries those values into their halos.
// The result equals the whole mesh smoothed on one device, bit for bit.
#pragma once
#include "compute/gpu/context.h"
#include "compute/mesh/io/meshb.h"

#include <memory>
#include <vector>

namespace mesh {

// The vertex graph through the mesh's edges: vertex v's neighbours next[start[v] .. start[v+1]),
// increasing.
struct VertexGraph {
  std::vector<uint32_t> start, next;
  size_t vertices() const { return start.empty() ? 0 : start.size() - 1; }
};
VertexGraph vertex_graph(const Mesh& m);

// One part: the vertices it owns and its halo (global numbers), its owned vertices' neighbours in
// local numbers (owned first, then halo), and the exchange: sends[q] the local owned vertices part
// q reads, in the order of q's halo segment from this part; halo_from[q] where that segment
// starts in this part's halo.
struct Part {
  std::vector<uint32_t> owned, halo;
  std::vector<uint32_t> start, next;
  std::vector<float> weight;  // 1 / (1 + degree) an owned vertex
  std::vector<std::vector<uint32_t>> sends;
  std::vector<uint32_t> halo_from, halo_count;  // a segment a part (0 for itself)
};
std::vector<Part> split_vertices(const Mesh& m, const VertexGraph& g, uint32_t parts);

// The step every part runs, over the whole mesh on the CPU: u ← (u + Σ neighbours) / (1 + degree)
// (the sum in the graph's order, then a product by the float weight), `steps` times.
std::vector<float> smooth_cpu(const VertexGraph& g, std::vector<float> u, uint32_t steps);

struct SplitRun {
  std::vector<float> u;  // the values after the steps, in the mesh's numbering
  uint32_t parts = 0, steps = 0;
  double wall_ms = 0;         // every step, kernels, packing and exchange
  double exchange_ms = 0;     // of it, the host carrying the halos between the devices
  uint64_t halo_values = 0;   // values a step carries between parts
  std::vector<size_t> owned;  // vertices a part
};
// `n` device contexts for a split run of `like`'s device: spread round robin over the GPUs of its
// name the machine has (several GPUs of one kind), else n instances of its own device (as GMlib
// opens several instances on one device), each with validation where `like` has it.
struct SplitContexts {
  std::vector<std::unique_ptr<gpu::Context>> owned;
  std::vector<gpu::Context*> all() const;
  uint32_t gpus = 1;          // the distinct devices they run on
  std::string where() const;  // "2 GPUs", "4 instances on 2 GPUs", "2 instances of 1 device"
};
SplitContexts split_contexts(const gpu::Context& like, uint32_t n);

// The steps on one context a part (contexts.size() parts; one context: the whole mesh, no halo),
// each context's work on a thread of its own.
SplitRun smooth_split(const std::vector<gpu::Context*>& contexts, const Mesh& m, const std::vector<float>& u0,
                      uint32_t steps);

}  // namespace mesh
