// The bar over the picture: Play/Pause, Step, Restart, the lab's speed, what it is doing, and
// the step-back slider. It stays inside the picture at any UI scale, an item going to the next
// line where it would run past the picture's right edge.
#pragma once
#include "app/core/session.h"

#include <utility>

class TransportBar {
 public:
  // `picture`: the lab's part of the window; `waiting`: a bench holds the lab; `presenting`:
  // presentation mode (the button leaves it).
  void draw(Session& s, const VkRect2D& picture, bool waiting, bool presenting);
  float width() const { return width_; }  // the bar's last width (said at exit)
  // The Present / Leave button was pressed this frame (once).
  bool take_present_click() { return std::exchange(present_clicked_, false); }

 private:
  void history_slider(Session& s, float width);
  float width_ = 0;
  bool present_clicked_ = false;
};
