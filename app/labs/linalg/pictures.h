// The linear algebra lab's pictures (Bleton 2005, ch. 3): its vectors as fields on their
// grid side by side (operands and result; CG: b and x, or the residual alone), and the
// layout view, where the first texels show which element sits in which channel.
#pragma once
#include "app/widgets/chart_picture.h"
#include "compute/linalg/vec.h"

#include <string>
#include <vector>

// `names.size()` panels of w x h cells with `gap` cells between them, named under each.
render::Chart panels_chart(const std::vector<std::string>& names, uint32_t w, uint32_t h);
// Where panel i goes inside the chart's rect.
render::Rect panel_rect(const render::Rect& chart, const render::Chart& c, size_t i, uint32_t w);
// 4 x 4 texels (texture layout) or vec4s (buffer layout, 4 a row) of a vector around its largest
// value, each as 2 x 2 cells (r g / b a) labelled with the element they hold; coloured on [lo, hi].
ChartPicture layout_chart(const std::vector<float>& values, linalg::Layout layout, uint32_t texture_side,
                          const std::string& colormap, float lo, float hi);
