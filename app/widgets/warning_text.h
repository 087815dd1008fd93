// A coloured message that wraps at the panel's edge (ImGui::TextColored runs off it): the
// panels' warnings and errors, which must be read whole however narrow the sidebar.
#pragma once
#include <imgui.h>

#include <cstdarg>

inline void warning_text(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);
inline void warning_text(const ImVec4& colour, const char* format, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  va_list args;
  va_start(args, format);
  ImGui::TextWrappedV(format, args);
  va_end(args);
  ImGui::PopStyleColor();
}
