// A picture drawn as a chart: the lab draws its image into chart_rect() (leaving room for
// the labels), and the legend (render/legend.h) draws the chart's
// title, axis labels, ticks and notes around and on it, so captures and recordings carry them.
#pragma once
#include "render/target.h"
#include "render/text_mesh.h"

#include <string>
#include <vector>

namespace render {

struct Tick {
  float at;  // grid cells from the left (x ticks) or from the top (y ticks)
  std::string text;
};

struct Note {
  float x, y;  // its centre, in grid cells from the top-left
  std::string text;
  float max_w = 0;  // > 0: the text shrinks to fit this many cells wide
  float max_h = 0;  // > 0: and its letters to this many cells high
};

struct Chart {
  uint32_t grid_w = 1, grid_h = 1;  // the image's cells
  float cell_aspect = 1;            // a cell's height over its width
  bool fill = false;                // a table: its cells stretch to all the room (cell_aspect unused)
  std::string title, x_label, y_label;
  std::vector<Tick> x_ticks, y_ticks;
  std::vector<Note> notes;
};

// Where the chart's image goes in `area`: room left around it for its labels at the picture's
// text size (render::picture_text_scale).
Rect chart_rect(VkRect2D area, const Chart& chart);
// The chart's labels as triangles (see TextMesh), letters at the picture's text size, at most
// `scale` x 7 pixels high, smaller where their room asks.
void chart_vertices(TextMesh& mesh, const Chart& chart, VkRect2D area, float scale);

}  // namespace render
