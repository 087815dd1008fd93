// The window's Inspect tab: one of the lab's GPU arrays read back when asked (never every
// frame), its minimum, maximum, NaN and infinity counts, the cell under the mouse where the
// picture shows that grid, and the values as a table.
#include "app/window.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>

// Long: the chooser, the read-back, the read-outs and the table, one after the other.
void Window::inspect_panel() {
  auto items = lab_->inspectables();
  if (items.empty()) {
    ImGui::TextWrapped("This lab has no arrays to inspect.");
    return;
  }
  if (inspect_lab_ != lab_->name()) inspect_lab_ = lab_->name(), inspect_item_ = 0, inspection_.reset();
  inspect_item_ = std::min(inspect_item_, items.size() - 1);
  const Inspectable& item = items[inspect_item_];
  if (ImGui::BeginCombo("array", item.name.c_str())) {
    for (size_t i = 0; i < items.size(); ++i)
      if (ImGui::Selectable(items[i].name.c_str(), i == inspect_item_)) inspect_item_ = i, inspect_type_.clear();
    ImGui::EndCombo();
  }
  if (inspect_type_.empty()) inspect_type_ = items[inspect_item_].type;
  if (ImGui::BeginCombo("read as", inspect_type_.c_str())) {
    for (auto& t : inspector_types())
      if (ImGui::Selectable(t.c_str(), t == inspect_type_)) inspect_type_ = t;
    ImGui::EndCombo();
  }
  if (ImGui::Button("Read back") || inspect_now_) {
    inspect_now_ = false;
    vkDeviceWaitIdle(ctx_->device);
    try {
      inspection_ = inspect(items[inspect_item_], inspect_type_);
      inspected_step_ = lab_->steps_done();
      std::printf("inspect: %s\n", inspection_->summary(inspected_step_).c_str());  // for scripts and tests
      std::fflush(stdout);
    } catch (const std::exception& e) {
      error_ = std::string("could not read the array: ") + e.what();
    }
  }
  if (!inspection_) {
    ImGui::TextWrapped("Read back copies the array from the GPU once (the lab keeps running).");
    return;
  }
  const Inspection& in = *inspection_;
  ImGui::TextWrapped("%s", in.summary(inspected_step_).c_str());
  // The cell under the mouse, where the picture is this grid fitted into the frame.
  if (item.drawn && in.width > 0 && item.name == in.name) {
    uint32_t h = uint32_t(in.count / in.width);
    render::Rect r = render::fit_rect(lab_frame(0).area, in.width, h);
    float u = (mouse_x_ - r.x) / r.w, v = (mouse_y_ - r.y) / r.h;
    if (u >= 0 && u < 1 && v >= 0 && v < 1) {
      size_t x = size_t(u * float(in.width)), y = size_t(v * float(h));
      ImGui::Text("under the mouse: (%zu, %zu) = %s", x, y, in.text(y * in.width + x).c_str());
    } else {
      ImGui::TextDisabled("move the mouse over the picture to read a cell");
    }
  }
  if (ImGui::BeginTable("values", 2,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                        {0, ImGui::GetTextLineHeightWithSpacing() * 16})) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(in.width ? "x, y" : "index");
    ImGui::TableSetupColumn("value");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(int(std::min<size_t>(in.count, size_t(INT32_MAX))));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (in.width)
          ImGui::Text("%u, %u", unsigned(size_t(i) % in.width), unsigned(size_t(i) / in.width));
        else
          ImGui::Text("%d", i);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(in.text(size_t(i)).c_str());
      }
    ImGui::EndTable();
  }
}
