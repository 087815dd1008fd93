#include "compute/mesh/split.h"

#include "shaders/mesh/halo_push.h"

#include "compute/gpu/pipeline.h"
#include "compute/mesh/links.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace mesh {

VertexGraph vertex_graph(const Mesh& m) {
  const auto edges = extract_edges(m);
  const size_t n = m.vertices();
  VertexGraph g;
  g.start.assign(n + 1, 0);
  for (size_t e = 0; e < edges.count(); ++e) ++g.start[edges.ev[2 * e] + 1], ++g.start[edges.ev[2 * e + 1] + 1];
  for (size_t v = 0; v < n; ++v) g.start[v + 1] += g.start[v];
  g.next.resize(g.start[n]);
  std::vector<uint32_t> at(g.start.begin(), g.start.end() - 1);
  for (size_t e = 0; e < edges.count(); ++e) {
    uint32_t a = edges.ev[2 * e], b = edges.ev[2 * e + 1];
    g.next[at[a]++] = b, g.next[at[b]++] = a;
  }
  for (size_t v = 0; v < n; ++v) std::sort(g.next.begin() + g.start[v], g.next.begin() + g.start[v + 1]);
  return g;
}

namespace {
float weight_of(const VertexGraph& g, size_t v) { return 1.0f / float(1 + g.start[v + 1] - g.start[v]); }
}  // namespace

std::vector<Part> split_vertices(const Mesh& m, const VertexGraph& g, uint32_t count) {
  const size_t n = m.vertices();
  if (count == 0 || count > n)
    throw std::invalid_argument("a mesh of " + std::to_string(n) + " vertices cannot be split in " +
                                std::to_string(count) + " parts");
  // the longest axis of the box, then the vertices in its order
  const int dim = m.dim;
  int axis = 0;
  double longest = -1;
  for (int a = 0; a < dim; ++a) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t v = 0; v < n; ++v) lo = std::min(lo, m.xyz[dim * v + a]), hi = std::max(hi, m.xyz[dim * v + a]);
    if (hi - lo > longest) longest = hi - lo, axis = a;
  }
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return m.xyz[dim * a + axis] < m.xyz[dim * b + axis]; });
  std::vector<uint32_t> owner(n), local(n);
  std::vector<Part> parts(count);
  for (uint32_t p = 0; p < count; ++p) {
    auto& owned = parts[p].owned;
    owned.assign(order.begin() + long(n * p / count), order.begin() + long(n * (p + 1) / count));
    std::sort(owned.begin(), owned.end());
    for (size_t i = 0; i < owned.size(); ++i) owner[owned[i]] = p, local[owned[i]] = uint32_t(i);
  }
  for (uint32_t p = 0; p < count; ++p) {
    Part& part = parts[p];
    std::vector<std::vector<uint32_t>> from(count);  // the halo, by owner
    for (uint32_t v : part.owned)
      for (uint32_t k = g.start[v]; k < g.start[v + 1]; ++k)
        if (owner[g.next[k]] != p) from[owner[g.next[k]]].push_back(g.next[k]);
    part.halo_from.assign(count, 0), part.halo_count.assign(count, 0);
    for (uint32_t q = 0; q < count; ++q) {
      auto& f = from[q];
      std::sort(f.begin(), f.end());
      f.erase(std::unique(f.begin(), f.end()), f.end());
      part.halo_from[q] = uint32_t(part.halo.size()), part.halo_count[q] = uint32_t(f.size());
      part.halo.insert(part.halo.end(), f.begin(), f.end());
    }
    std::vector<uint32_t> halo_local;  // a halo vertex's local number, by binary search per segment
    auto local_of = [&](uint32_t v) {
      uint32_t q = owner[v];
      if (q == p) return local[v];
      auto first = part.halo.begin() + part.halo_from[q], last = first + part.halo_count[q];
      return uint32_t(part.owned.size()) + uint32_t(std::lower_bound(first, last, v) - part.halo.begin());
    };
    part.start.push_back(0);
    for (uint32_t v : part.owned) {
      for (uint32_t k = g.start[v]; k < g.start[v + 1]; ++k) part.next.push_back(local_of(g.next[k]));
      part.start.push_back(uint32_t(part.next.size()));
      part.weight.push_back(weight_of(g, v));
    }
  }
  for (uint32_t q = 0; q < count; ++q) {  // what q sends p: p's halo segment from q, in q's numbers
    parts[q].sends.assign(count, {});
    for (uint32_t p = 0; p < count; ++p)
      for (uint32_t k = 0; k < parts[p].halo_count[q]; ++k)
        parts[q].sends[p].push_back(local[parts[p].halo[parts[p].halo_from[q] + k]]);
  }
  return parts;
}

std::vector<float> smooth_cpu(const VertexGraph& g, std::vector<float> u, uint32_t steps) {
  std::vector<float> next(u.size());
  for (uint32_t s = 0; s < steps; ++s) {
    for (size_t v = 0; v < g.vertices(); ++v) {
      float sum = u[v];
      for (uint32_t k = g.start[v]; k < g.start[v + 1]; ++k) sum += u[g.next[k]];
      next[v] = sum * weight_of(g, v);
    }
    std::swap(u, next);
  }
  return u;
}

std::vector<gpu::Context*> SplitContexts::all() const {
  std::vector<gpu::Context*> out;
  for (auto& c : owned) out.push_back(c.get());
  return out;
}

std::string SplitContexts::where() const {
  const size_t n = owned.size();
  if (gpus > 1 && n == gpus) return std::to_string(n) + " GPUs";
  if (gpus > 1) return std::to_string(n) + " instances on " + std::to_string(gpus) + " GPUs";
  return std::to_string(n) + (n == 1 ? " instance" : " instances") + " of 1 device";
}

SplitContexts split_contexts(const gpu::Context& like, uint32_t n) {
  std::vector<uint32_t> same;
  for (auto& d : gpu::list_devices())
    if (d.usable && d.name == like.info.name) same.push_back(d.index);
  SplitContexts c;
  c.gpus = std::max<uint32_t>(1, std::min<uint32_t>(n, uint32_t(same.size())));
  for (uint32_t p = 0; p < n; ++p) {  // round robin over the GPUs of that kind
    gpu::ContextOptions o;
    o.validation = like.validation_enabled();
    o.device = std::to_string(c.gpus > 1 ? same[p % c.gpus] : like.info.index);
    c.owned.push_back(std::make_unique<gpu::Context>(o));
  }
  return c;
}

namespace {

using HaloPush = push::HaloPush;  // shaders/mesh/halo_push.h

// A part on its device: its tables, its values twice (ping-pong), the values it sends and the
// halo it receives (host-visible both), and its two kernels.
struct OnDevice {
  gpu::Context* ctx;
  const Part* part;
  gpu::Pipeline smooth, pack;
  gpu::Buffer start, next, weight, u[2], sends, sent, received;
  std::vector<uint32_t> send_from;  // where the values for part q start in `sent`
  uint32_t sent_count = 0;

  OnDevice(gpu::Context& c, const Part& p, const std::vector<float>& u0)
      : ctx(&c),
        part(&p),
        smooth(gpu::make_compute(c, "mesh/halo_smooth.comp", sizeof(HaloPush))),
        pack(gpu::make_compute(c, "mesh/halo_pack.comp", sizeof(HaloPush))) {
    auto storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    auto make = [&](const auto& v) {
      gpu::Buffer b(c, std::max<size_t>(v.size(), 1) * 4, storage);
      if (!v.empty()) b.upload(v);
      return b;
    };
    start = make(p.start), next = make(p.next), weight = make(p.weight);
    std::vector<float> values;  // owned, then halo
    for (uint32_t v : p.owned) values.push_back(u0[v]);
    for (uint32_t v : p.halo) values.push_back(u0[v]);
    u[0] = make(values), u[1] = make(values);
    std::vector<uint32_t> flat;
    for (auto& s : p.sends) send_from.push_back(uint32_t(flat.size())), flat.insert(flat.end(), s.begin(), s.end());
    sent_count = uint32_t(flat.size());
    sends = make(flat);
    sent = gpu::Buffer(c, std::max<size_t>(flat.size(), 1) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    received = gpu::Buffer(c, std::max<size_t>(p.halo.size(), 1) * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  }

  // One step from u[cur] into u[1 - cur]: the halo received first (after the first step), then the
  // smoothing, then the packing of what the others read.
  void step(int cur, bool halo_received) {
    const uint32_t owned = uint32_t(part->owned.size()), halo = uint32_t(part->halo.size());
    ctx->submit_now([&](VkCommandBuffer cmd) {
      // the step before's writes (a submission waited for) before this one's reads and writes
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
      if (halo_received && halo) {
        VkBufferCopy r{0, VkDeviceSize(owned) * 4, VkDeviceSize(halo) * 4};
        vkCmdCopyBuffer(cmd, received.handle(), u[cur].handle(), 1, &r);
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
      }
      smooth.bind(cmd,
                  {gpu::storage_buffer(start), gpu::storage_buffer(next), gpu::storage_buffer(weight),
                   gpu::storage_buffer(u[cur]), gpu::storage_buffer(u[1 - cur])},
                  HaloPush{.count = owned});
      smooth.dispatch(cmd, owned);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
      if (sent_count) {
        pack.bind(cmd, {gpu::storage_buffer(sends), gpu::storage_buffer(u[1 - cur]), gpu::storage_buffer(sent)},
                  HaloPush{.count = sent_count});
        pack.dispatch(cmd, sent_count);
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
      }
    });
  }
};

}  // namespace

SplitRun smooth_split(const std::vector<gpu::Context*>& contexts, const Mesh& m, const std::vector<float>& u0,
                      uint32_t steps) {
  if (contexts.empty()) throw std::invalid_argument("a split run needs a device context at least");
  if (u0.size() != m.vertices()) throw std::invalid_argument("one value a vertex");
  const uint32_t count = uint32_t(contexts.size());
  const auto parts = split_vertices(m, vertex_graph(m), count);
  std::vector<std::unique_ptr<OnDevice>> devices;
  for (uint32_t p = 0; p < count; ++p) devices.push_back(std::make_unique<OnDevice>(*contexts[p], parts[p], u0));
  SplitRun run;
  run.parts = count, run.steps = steps;
  for (auto& p : parts) run.owned.push_back(p.owned.size()), run.halo_values += p.halo.size();
  auto t0 = std::chrono::steady_clock::now();
  int cur = 0;
  for (uint32_t s = 0; s < steps; ++s) {
    std::vector<std::thread> threads;  // each device's submission waited for on a thread of its own
    for (auto& d : devices) threads.emplace_back([&, dev = d.get()] { dev->step(cur, s > 0); });
    for (auto& t : threads) t.join();
    auto e0 = std::chrono::steady_clock::now();
    for (uint32_t q = 0; q < count; ++q)  // q's packed values into each part p's halo segment from q
      for (uint32_t p = 0; p < count; ++p)
        if (uint32_t n = parts[p].halo_count[q])
          std::memcpy(static_cast<float*>(devices[p]->received.mapped()) + parts[p].halo_from[q],
                      static_cast<const float*>(devices[q]->sent.mapped()) + devices[q]->send_from[p], n * 4);
    run.exchange_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - e0).count();
    cur = 1 - cur;
  }
  run.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run.u.resize(m.vertices());
  for (uint32_t p = 0; p < count; ++p) {
    auto values = devices[p]->u[cur].download<float>();
    for (size_t i = 0; i < parts[p].owned.size(); ++i) run.u[parts[p].owned[i]] = values[i];
  }
  return run;
}

}  // namespace mesh
