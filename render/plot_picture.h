// A plot as a picture of its own (PNG for slides and projection): the same axes as the panel's
// plot (render/plot_axes.h), drawn with the pictures' font at a size read across a room.
#pragma once
#include "render/text_mesh.h"

#include <volk.h>

#include <string>
#include <vector>

namespace render {

struct PlotPicture {
  std::string title;             // the lab and what is plotted
  std::string x_label, y_label;  // with units
  bool log_y = false;            // y on a log10 scale (values <= 0 left out)
  std::vector<double> x, y;      // x empty: 0, 1, 2 ...
};

// The plot's triangles filling `area` (pixels, TextMesh's vertices): a frame, horizontal grid
// lines at the y ticks, x ticks, their labels, the axes' labels, the title and the line. Text is
// `scale` x 7 pixels high (render::picture_text_scale for the picture's height).
void plot_vertices(TextMesh& mesh, const PlotPicture& plot, VkRect2D area, float scale);

}  // namespace render
