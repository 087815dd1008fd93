// The Inspect tab: one of the lab's GPU arrays read back when asked (never every frame), its
// minimum, maximum, NaN and infinity counts, the cell under the mouse where the picture shows
// that grid, and the values as a table.
#pragma once
#include "app/core/inspector.h"
#include "app/core/session.h"

#include <optional>

class InspectTab {
 public:
  // `picture`: where the lab draws in the window; `mouse`: the pointer, framebuffer pixels.
  void draw(Session& s, const VkRect2D& picture, float mouse_x, float mouse_y);
  void read_next() { read_now_ = true; }  // key I: read back when the tab is next drawn

 private:
  void choose(const std::vector<Inspectable>& items);
  void read(Session& s, const Inspectable& item);
  void cell_under_mouse(const Inspectable& item, const VkRect2D& picture, float mouse_x, float mouse_y);
  void table();
  std::string lab_, type_;
  size_t item_ = 0;
  std::optional<Inspection> inspection_;
  uint64_t step_ = 0;  // the lab's step when read
  bool read_now_ = false;
};
