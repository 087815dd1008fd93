// The panel's colour bar: a colour map from lo to hi, with both ends' values (ImGui).
#pragma once
#include <string>

void colour_bar(const std::string& colormap, float lo, float hi);
