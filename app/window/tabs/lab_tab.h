// The Lab tab: the lab selector, the lab's parameters by group, Restart, the lab's own panel,
// and the presets (shipped, loaded from and saved to a file).
#pragma once
#include "app/core/session.h"

class LabTab {
 public:
  void draw(Session& s);

 private:
  void presets(Session& s);
  int chosen_preset_ = 0;
  std::string preset_lab_;  // the lab chosen_preset_ was picked for
  std::string preset_path_ = "presets/my-preset.json";
};
