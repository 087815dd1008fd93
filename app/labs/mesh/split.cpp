// GMlib's several instances in the mesh lab (split.h).
#include "app/labs/mesh/split.h"

#include <imgui.h>

#include <cstdio>
#include <random>

SplitReport run_split(gpu::Context& ctx, const mesh::Mesh& m, uint32_t devices, uint32_t steps) {
  SplitReport r;
  if (devices < 2) return r;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> u0(m.vertices());
  for (auto& x : u0) x = u(rng);
  auto contexts = mesh::split_contexts(ctx, devices);
  r.devices = devices, r.steps = steps, r.where = contexts.where() + " (" + ctx.info.name + ")";
  r.many = mesh::smooth_split(contexts.all(), m, u0, steps);
  r.one = mesh::smooth_split({&ctx}, m, u0, steps);
  r.equal_to_one = r.many.u == r.one.u;
  r.equal_to_cpu = r.one.u == mesh::smooth_cpu(mesh::vertex_graph(m), u0, steps);
  return r;
}

TableData split_table(const SplitReport& r) {
  TableData t{"mesh-split",
              "One mesh on several devices, the halo exchanged (Maréchal 2020, GMlib's instances)",
              {"devices", "vertices a part", "halo values a step", "ms a step", "exchange ms a step", "result"}};
  auto row = [&](const mesh::SplitRun& run, const std::string& result) {
    std::string owned;
    for (size_t k = 0; k < run.owned.size(); ++k) owned += (k ? ", " : "") + std::to_string(run.owned[k]);
    char ms[32], ex[32];
    std::snprintf(ms, sizeof ms, "%.3f", run.wall_ms / std::max(run.steps, 1u));
    std::snprintf(ex, sizeof ex, "%.3f", run.exchange_ms / std::max(run.steps, 1u));
    t.rows.push_back({std::to_string(run.parts), owned, std::to_string(run.halo_values), ms, ex, result});
  };
  if (!r.devices) return t;
  row(r.one, r.equal_to_cpu ? "as the CPU, bit for bit" : "NOT as the CPU");
  row(r.many, r.equal_to_one ? "as one device, bit for bit" : "NOT as one device");
  t.sentences = 5;
  return t;
}

void split_panel(const SplitReport& r) {
  if (!ImGui::CollapsingHeader("Several devices (GMlib's instances)")) return;
  ImGui::TextWrapped(
      "GMlib drives one device an instance and leaves the sharing of a mesh between devices to its user. Here the "
      "vertices are split along the mesh's longest axis into Split devices parts, each on a device context of its "
      "own with the neighbours it reads from the others as a halo; %u steps of smoothing, u <- (u + the "
      "neighbours' sum) / (1 + degree), the host carrying the halos between the steps.",
      r.steps);
  if (!r.devices) {
    ImGui::TextDisabled("set Split devices to 2 or more (split_devices)");
    return;
  }
  ImGui::TextWrapped("on %s", r.where.c_str());
  table(split_table(r));
}

nlohmann::json split_json(const SplitReport& r) {
  if (!r.devices) return nullptr;
  auto run = [](const mesh::SplitRun& s) {
    return nlohmann::json{{"parts", s.parts},
                          {"owned", s.owned},
                          {"halo_values", s.halo_values},
                          {"wall_ms", s.wall_ms},
                          {"exchange_ms", s.exchange_ms},
                          {"steps", s.steps}};
  };
  return {{"source", "Maréchal 2020, GMlib: several instances, the distribution left to the user"},
          {"devices", r.devices},
          {"where", r.where},
          {"one_device", run(r.one)},
          {"split", run(r.many)},
          {"equal_to_one_device", r.equal_to_one},
          {"one_device_equal_to_cpu", r.equal_to_cpu}};
}

std::string split_text(const SplitReport& r) {
  if (!r.devices) return "";
  char s[320];
  std::snprintf(s, sizeof s,
                "split over %s: %u steps in %.3f ms a step (one device: %.3f), %llu halo values a step carried in "
                "%.3f ms; %s\n",
                r.where.c_str(), r.steps, r.many.wall_ms / std::max(r.steps, 1u), r.one.wall_ms / std::max(r.steps, 1u),
                (unsigned long long)r.many.halo_values, r.many.exchange_ms / std::max(r.steps, 1u),
                r.equal_to_one && r.equal_to_cpu ? "the values equal one device's and the CPU's, bit for bit"
                                                 : "the values DIFFER from one device's or the CPU's");
  return s;
}
