// Bleton 2005's wished-for operator[] in the linear algebra lab (element_panel.h).
#include "app/labs/linalg/element_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

void ElementPanel::draw(gpu::Context& ctx, uint32_t n, linalg::Layout layout) {
  if (!ImGui::CollapsingHeader("operator[]: one element set (Bleton 2005, ch. 5)")) return;
  ImGui::TextWrapped(
      "The thesis could change a vector on the GPU only by sending it whole again, and wished for an operator [ ] "
      "through glTexSubImage2D, which would first need the texel read back: its other three channels. Here a "
      "vector of %u values in the %s layout (0, 1, 2, ...): Set reads the texel back and writes it again "
      "(texture), or writes the one float (buffer).",
      n, linalg::layout_name(layout));
  if (!v_ || v_->n() != n || v_->layout() != layout) {
    v_ = std::make_unique<linalg::Vec>(ctx, n, layout);
    std::vector<float> values(n);
    std::iota(values.begin(), values.end(), 0.0f);
    v_->upload(values);
    said_.clear();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::InputInt("element", &index_);
  index_ = std::clamp(index_, 0, int(n) - 1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::InputFloat("value", &value_);
  ImGui::SameLine();
  if (ImGui::Button("Set")) {
    auto quad = [&] {
      auto all = v_->download_padded();
      char s[96];
      const size_t q = size_t(index_) / 4 * 4;
      std::snprintf(s, sizeof s, "(%g, %g, %g, %g)", all[q], all[q + 1], all[q + 2], all[q + 3]);
      return std::string(s);
    };
    std::string before = quad();
    auto t0 = std::chrono::steady_clock::now();
    size_t bytes = v_->set(uint32_t(index_), value_);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    char s[320];
    std::snprintf(s, sizeof s,
                  "element %d: its quad %s -> %s; %zu bytes moved in %.3f ms (the whole vector: %.0f bytes)", index_,
                  before.c_str(), quad().c_str(), bytes, ms, v_->bytes());
    said_ = s;
  }
  if (!said_.empty()) ImGui::TextWrapped("%s", said_.c_str());
}
