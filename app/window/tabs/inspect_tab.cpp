#include "app/window/tabs/inspect_tab.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

void InspectTab::draw(Session& s, const VkRect2D& picture, float mouse_x, float mouse_y) {
  auto items = s.lab().inspectables();
  if (items.empty()) {
    ImGui::TextWrapped("This lab has no arrays to inspect.");
    return;
  }
  if (lab_ != s.lab().name()) lab_ = s.lab().name(), item_ = 0, inspection_.reset();
  item_ = std::min(item_, items.size() - 1);
  choose(items);
  if (ImGui::Button("Read back") || read_now_) {
    read_now_ = false;
    read(s, items[item_]);
  }
  if (!inspection_) {
    ImGui::TextWrapped("Read back copies the array from the GPU once (the lab keeps running).");
    return;
  }
  ImGui::TextWrapped("%s", inspection_->summary(step_).c_str());
  cell_under_mouse(items[item_], picture, mouse_x, mouse_y);
  table();
}

void InspectTab::choose(const std::vector<Inspectable>& items) {
  if (ImGui::BeginCombo("array", items[item_].name.c_str())) {
    for (size_t i = 0; i < items.size(); ++i)
      if (ImGui::Selectable(items[i].name.c_str(), i == item_)) item_ = i, type_.clear();
    ImGui::EndCombo();
  }
  if (type_.empty()) type_ = items[item_].type;
  if (ImGui::BeginCombo("read as", type_.c_str())) {
    for (auto& t : inspector_types(items[item_]))
      if (ImGui::Selectable(t.c_str(), t == type_)) type_ = t;
    ImGui::EndCombo();
  }
}

void InspectTab::read(Session& s, const Inspectable& item) {
  s.ctx().wait_idle();
  try {
    inspection_ = inspect(item, type_);
    step_ = s.lab().steps_done();
    std::printf("inspect: %s\n", inspection_->summary(step_).c_str());  // for scripts and tests
    std::fflush(stdout);
  } catch (const std::exception& e) {
    s.error = std::string("could not read the array: ") + e.what();
  }
}

// The cell under the mouse, where the picture is this grid fitted into the frame.
void InspectTab::cell_under_mouse(const Inspectable& item, const VkRect2D& picture, float mouse_x, float mouse_y) {
  const Inspection& in = *inspection_;
  if (!item.drawn || in.width == 0 || item.name != in.name) return;
  uint32_t h = uint32_t(in.count / in.width);
  render::Rect r = render::fit_rect(picture, in.width, h);
  float u = (mouse_x - r.x) / r.w, v = (mouse_y - r.y) / r.h;
  if (u >= 0 && u < 1 && v >= 0 && v < 1) {
    size_t x = size_t(u * float(in.width)), y = size_t(v * float(h));
    ImGui::Text("under the mouse: (%zu, %zu) = %s", x, y, in.text(y * in.width + x).c_str());
  } else {
    ImGui::TextDisabled("move the mouse over the picture to read a cell");
  }
}

void InspectTab::table() {
  const Inspection& in = *inspection_;
  if (!ImGui::BeginTable("values", 2,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                         {0, ImGui::GetTextLineHeightWithSpacing() * 16}))
    return;
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
