#include "compute/machining/work.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace machining {

uint32_t brins_across(const Mesh& tool, float d) {
  float longest = 0;
  for (size_t t = 0; t < tool.triangles(); ++t) {
    const glm::vec3* v = &tool.vertices[3 * t];
    longest = std::max({longest, glm::length(v[1] - v[0]), glm::length(v[2] - v[1]), glm::length(v[0] - v[2])});
  }
  double n = std::floor(double(longest) / double(d)) + 2;  // +1 for the interval's ends, +1 for rounding
  return uint32_t(std::min(n, 1e9));
}

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

WorkPlan plan_work(Engine e, uint32_t triangles, uint32_t first, uint32_t count, uint32_t brins, uint32_t across,
                   uint64_t budget, uint32_t parts, uint32_t group) {
  if (e == Engine::Cpu || e == Engine::Hardware) throw std::invalid_argument("plan_work: a compute engine only");
  if (group == 0 || parts == 0) throw std::invalid_argument("plan_work: a workgroup and G of at least 1");
  const uint64_t kMaxInvocations = kMaxGroups * group;
  auto groups_for = [&](uint64_t invocations) { return uint32_t(std::max<uint64_t>(1, ceil_div(invocations, group))); };
  WorkPlan w;
  const uint64_t T = triangles, P = count, cols = across;
  // One triangle at one position: its rows (a loop each) of up to `across` brins, in slices
  // of rows that keep it within a quarter of the budget.
  w.slice_rows = uint32_t(std::clamp<uint64_t>((budget / 4 - 2) / (cols + 1), 1, std::max<uint64_t>(cols, 1)));
  const uint64_t slices = ceil_div(std::max<uint64_t>(cols, 1), w.slice_rows);
  const uint64_t raster = 2 + uint64_t(w.slice_rows) * (cols + 1);  // + the caller's loop
  auto add = [&](uint64_t tf, uint64_t tc, uint64_t pf, uint64_t pc, uint64_t invocations, uint64_t per_invocation) {
    for (uint64_t s = 0; s < slices; ++s) {
      Dispatch d;
      d.tri_first = uint32_t(tf), d.tri_count = uint32_t(tc), d.pos_first = uint32_t(first + pf),
      d.pos_count = uint32_t(pc);
      d.slice = uint32_t(s);
      d.groups = groups_for(invocations);
      w.dispatches.push_back(d);
    }
    w.loop_bound = std::max(w.loop_bound, per_invocation);
  };
  switch (e) {
    case Engine::PerPosition: {  // a thread: one position, a run of triangles (a G-th of a dispatch's)
      const uint64_t G = std::min<uint64_t>(parts, T), per = std::max<uint64_t>(1, budget / (raster + 1));
      w.parts = uint32_t(G);
      uint64_t tc = std::clamp<uint64_t>(per * G, 1, T), pc = std::clamp<uint64_t>(kMaxInvocations / G, 1, P);
      for (uint64_t pf = 0; pf < P; pf += pc)
        for (uint64_t tf = 0; tf < T; tf += tc)
          add(tf, std::min(tc, T - tf), pf, std::min(pc, P - pf), std::min(pc, P - pf) * G,
              2 + ceil_div(tc, G) * (raster + 1));
      break;
    }
    case Engine::PerTriangle: {  // a thread: one triangle, a run of positions (a G-th of a dispatch's)
      const uint64_t G = std::min<uint64_t>(parts, P), per = std::max<uint64_t>(1, budget / (raster + 1));
      w.parts = uint32_t(G);
      uint64_t pc = std::clamp<uint64_t>(per * G, 1, P), tc = std::clamp<uint64_t>(kMaxInvocations / G, 1, T);
      for (uint64_t tf = 0; tf < T; tf += tc)
        for (uint64_t pf = 0; pf < P; pf += pc)
          add(tf, std::min(tc, T - tf), pf, std::min(pc, P - pf), std::min(tc, T - tf) * G,
              2 + ceil_div(pc, G) * (raster + 1));
      break;
    }
    case Engine::Fine: {  // a thread: one pair
      uint64_t tc = std::min<uint64_t>(T, kMaxInvocations), pc = std::max<uint64_t>(1, kMaxInvocations / tc);
      for (uint64_t pf = 0; pf < P; pf += pc)
        for (uint64_t tf = 0; tf < T; tf += tc) {
          uint64_t n = std::min(tc, T - tf) * std::min(pc, P - pf);
          add(tf, std::min(tc, T - tf), pf, std::min(pc, P - pf), n, 1 + raster);
        }
      break;
    }
    case Engine::Persistent: {  // 2048 resident workgroups taking per_take pairs a thread, `takes` times
      const uint64_t resident = 2048 * 64 / group;  // workgroups: 131 072 invocations
      w.per_take = uint32_t(std::clamp<uint64_t>(budget / 4 / (raster + 1), 1, 32));
      w.takes = uint32_t(std::max<uint64_t>(1, budget / (uint64_t(w.per_take) * (raster + 1) + 2)));
      uint64_t capacity = resident * group * w.per_take * w.takes;
      uint64_t tc = std::min<uint64_t>(T, capacity), pc = std::max<uint64_t>(1, capacity / tc);
      for (uint64_t pf = 0; pf < P; pf += pc)
        for (uint64_t tf = 0; tf < T; tf += tc)
          add(tf, std::min(tc, T - tf), pf, std::min(pc, P - pf), resident * group,
              w.takes * (2 + uint64_t(w.per_take) * (raster + 1)));
      break;
    }
    case Engine::PerBrin: {  // a thread: one brin, a run of positions, each with a run of triangles
      uint64_t tc = std::clamp<uint64_t>(budget / 2, 1, T), pc = std::clamp<uint64_t>(budget / (tc + 1), 1, P);
      uint64_t bc = std::min<uint64_t>(brins, kMaxInvocations);
      for (uint64_t bf = 0; bf < brins; bf += bc)
        for (uint64_t pf = 0; pf < P; pf += pc)
          for (uint64_t tf = 0; tf < T; tf += tc) {
            Dispatch d;
            d.tri_first = uint32_t(tf), d.tri_count = uint32_t(std::min(tc, T - tf));
            d.pos_first = uint32_t(first + pf), d.pos_count = uint32_t(std::min(pc, P - pf));
            d.brin_first = uint32_t(bf), d.brin_count = uint32_t(std::min(bc, brins - bf));
            d.groups = groups_for(d.brin_count);
            w.dispatches.push_back(d);
          }
      w.loop_bound = 1 + pc * (1 + tc);
      break;
    }
    default:
      break;
  }
  return w;
}

}  // namespace machining
