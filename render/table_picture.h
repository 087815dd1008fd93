// A table as a picture of its own (PNG for slides and projection): a title, a header row and a
// row a line, each column as wide as its widest cell at the pictures' text size, so no number or
// word is ever cut or shrunk; a cell may carry its own colour (a verdict's).
#pragma once
#include "render/text_mesh.h"

#include <volk.h>

#include <string>
#include <vector>

namespace render {

struct TablePicture {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<uint32_t>> colours;  // 0xRRGGBB a cell where given (0: the text's white)
};

// The picture's size in pixels for letters `scale` x 7 pixels high.
VkExtent2D table_picture_size(const TablePicture& t, float scale);
// The table's triangles from the top-left of `area` (TextMesh's vertices).
void table_vertices(TextMesh& mesh, const TablePicture& t, VkRect2D area, float scale);

}  // namespace render
