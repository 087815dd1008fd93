#include "app/window/tabs/occupancy_panel.h"

#include "app/widgets/plot.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>

#include <algorithm>

void OccupancyPanel::draw(Session& s) {
  if (!ImGui::CollapsingHeader("Kernels and occupancy (SIMSURF, Abecassis 2012, section 12.2)")) return;
  kernels(s);
  calculator(s.ctx());
}

// Read again whenever the lab's pipelines change (a rebuild, another lab, another variant).
void OccupancyPanel::kernels(Session& s) {
  const gpu::Context& ctx = s.ctx();
  if (auto why = gpu::kernel_statistics_missing(ctx); !why.empty()) {
    warning_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "%s.", why.c_str());
    return;
  }
  std::vector<VkPipeline> live;
  {
    std::lock_guard lock(ctx.pipelines_mutex);
    for (auto& entry : ctx.pipelines) live.push_back(entry.first);
  }
  if (live != pipelines_seen_) reports_ = gpu::kernel_statistics(ctx), pipelines_seen_ = std::move(live);
  if (!ImGui::BeginTable("kernels", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {"kernel", "workgroup", "registers", "shared B", "occupancy", "best sizes"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (auto& k : reports_) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(k.shader.c_str());
    if (ImGui::IsItemHovered() && !k.statistics.empty()) {
      std::string all;
      for (auto& st : k.statistics) all += st.name + ": " + std::to_string(st.value) + "\n";
      ImGui::SetTooltip("%s", all.c_str());
    }
    ImGui::TableNextColumn();
    ImGui::Text("%ux%ux%u", k.local_x, k.local_y, k.local_z);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(k.registers ? std::to_string(*k.registers).c_str() : "-");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(k.shared_bytes ? std::to_string(*k.shared_bytes).c_str() : "-");
    ImGui::TableNextColumn();
    if (k.occupancy)
      ImGui::Text("%.0f %% (%s)", 100 * k.occupancy->occupancy, gpu::limit_name(k.occupancy->limit));
    else
      ImGui::TextUnformatted("-");
    ImGui::TableNextColumn();
    std::string best;
    for (size_t i = 0; i < k.best_threads.size() && i < 4; ++i)
      best += (i ? ", " : "") + std::to_string(k.best_threads[i]);
    ImGui::TextUnformatted(best.empty() ? "-" : best.c_str());
  }
  ImGui::EndTable();
}

// The equations for counts the user sets, on the report's card or today's; the occupancy
// over every workgroup size below, which a measured sweep (bench --sweep) can be held against.
void OccupancyPanel::calculator(const gpu::Context& ctx) {
  ImGui::TextWrapped(
      "Calculator: the report's equations for a kernel of R registers a thread and T threads a "
      "workgroup (its example: 29 registers, 256 threads on a Quadro 4000, 67 %%).");
  const gpu::Multiprocessor cards[] = {gpu::fermi_multiprocessor(), gpu::ampere_multiprocessor(),
                                       gpu::hopper_multiprocessor()};
  if (ImGui::BeginCombo("multiprocessor", cards[multiprocessor_].name.c_str())) {
    for (int i = 0; i < 3; ++i)
      if (ImGui::Selectable(cards[i].name.c_str(), i == multiprocessor_)) multiprocessor_ = i;
    ImGui::EndCombo();
  }
  gpu::Multiprocessor device;
  if (gpu::multiprocessor_of(ctx.info.name, device)) ImGui::TextDisabled("this device: %s", device.name.c_str());
  const gpu::Multiprocessor& mp = cards[multiprocessor_];
  ImGui::SliderInt("R_k registers", &registers_, 1, int(mp.max_registers_per_thread));
  ImGui::SliderInt("T threads", &threads_, 32, int(mp.max_threads_per_block));
  ImGui::SliderInt("shared bytes", &shared_, 0, int(mp.shared_bytes));
  registers_ = std::clamp(registers_, 1, int(mp.max_registers_per_thread));
  threads_ = std::clamp(threads_, 1, int(mp.max_threads_per_block));
  auto o = gpu::occupancy(mp, uint32_t(threads_), uint32_t(registers_), uint32_t(shared_));
  ImGui::TextUnformatted(gpu::explain(mp, o).c_str());
  std::vector<double> sizes, by_size;
  for (uint32_t t = mp.warp_size; t <= mp.max_threads_per_block; t += mp.warp_size)
    sizes.push_back(t),
        by_size.push_back(100 * gpu::occupancy(mp, t, uint32_t(registers_), uint32_t(shared_)).occupancy);
  plot({"occupancy-by-workgroup-size", "threads a workgroup (T)", "occupancy (%)", false, 90}, sizes, by_size);
  std::string best;
  for (auto t : gpu::best_threads(mp, uint32_t(registers_), uint32_t(shared_)))
    best += (best.empty() ? "" : ", ") + std::to_string(t);
  ImGui::TextWrapped("T_opt (12.7), the sizes of highest occupancy: %s", best.empty() ? "none" : best.c_str());
}
