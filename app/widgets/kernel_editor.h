// A kernel editor for a pane beside the picture (the exercises' kernels, a lab's own kernel
// text): line numbers, GLSL's keywords, types and built-ins in colours, comments and numbers
// apart, the lines the compiler or the checker complained about marked with their message at
// the line's end, the caret always in view (the view follows it up, down and sideways), Ctrl+S
// to save. ImGui edits the text; the editor draws it over ImGui's own transparent copy, and the
// caret.
#pragma once
#include "compute/exercise/user_kernel.h"

#include <string>
#include <vector>

class KernelEditor {
 public:
  void set_text(const std::string& text);  // the text as saved: not dirty
  std::string text() const { return buffer_.data(); }
  bool dirty() const { return text() != saved_; }
  void saved() { saved_ = text(); }
  // Draws the editor `height` pixels tall (the rest of the width); true when the user pressed
  // Ctrl+S in it. `focus`: the caret goes into it this frame.
  bool draw(const std::vector<exercise::LineError>& errors, float height, bool focus = false);
  // Where the caret is (1-based line and column) and which lines the view shows.
  struct View {
    int caret_line = 1, caret_column = 1, first_line = 1, last_line = 1, lines = 1;
  };
  const View& view() const { return view_; }

 private:
  std::vector<char> buffer_ = std::vector<char>(1, '\0');
  std::string saved_;
  int caret_ = 0, last_caret_ = -1;  // a byte offset, from ImGui's callback; the last frame's
  int settle_ = 0;                   // frames left while a focus asked for lands
  View view_;
};
