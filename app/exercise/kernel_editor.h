// The Exercise tab's kernel editor: the text with its line numbers beside it, the lines the
// compiler complained about marked (their messages on hover), Ctrl+S to save.
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
  // Draws the editor `height` pixels tall; true when the user pressed Ctrl+S in it.
  bool draw(const std::vector<exercise::LineError>& errors, float height);

 private:
  std::vector<char> buffer_ = std::vector<char>(1, '\0');
  std::string saved_;
};
