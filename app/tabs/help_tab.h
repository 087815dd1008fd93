// The Help tab: the lab's page (assets/<lab>/help.md) with Load buttons for the presets it
// names, then the window's keys.
#pragma once
#include "app/help.h"
#include "app/session.h"

class HelpTab {
 public:
  void draw(Session& s);

 private:
  std::string lab_;  // the lab page_ is for
  std::vector<HelpBlock> page_;
};
