// The Help tab: the lab's page (assets/<lab>/help.md) with its contents, its lesson (the Try
// section's steps, each with a Run button: app/core/lessons.h) and Load buttons for the presets it
// names, then the window's keys. A page opens at its lesson the first time and where it was
// left after; each lab's page keeps its own scroll position.
#pragma once
#include "app/core/help.h"
#include "app/core/lessons.h"
#include "app/core/session.h"

#include <map>

class HelpTab {
 public:
  void draw(Session& s);

 private:
  void contents();
  std::string lab_;  // the lab page_ is for
  std::vector<HelpBlock> page_;
  std::vector<LessonStep> lesson_;
  std::string lesson_error_;             // the lesson could not be read (a bad step)
  std::map<std::string, float> scroll_;  // each lab's page's scroll position
  std::map<std::string, int> last_run_;  // each lab's lesson step run last
  HelpView view_;
  bool restore_ = false;  // the page changed: its scroll position is put back next
};
