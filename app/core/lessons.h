// A lab's lesson: the steps of its help page's "Try" section (assets/<lab>/help.md), each
// runnable. A step names what it sets up in code spans: a shipped preset (`lab/name`) and knob
// values (`NAME=VALUE`); a step that names no preset builds on the step before it. Running a
// step loads the lab's defaults with those values and starts at step 0 (Session::load_preset),
// and its sentence says what to look at.
#pragma once
#include "app/core/help.h"
#include "app/core/presets.h"

#include <string>
#include <vector>

struct LessonStep {
  std::string text;               // the bullet: what to do and what to look at
  std::string preset;             // the shipped preset it names, or "" (the step before's)
  std::vector<std::string> sets;  // NAME=VALUE, the lab's knobs, in the order written
  Preset setup;                   // what running it loads: lab, its values (preset, then sets)
  bool runnable() const { return !setup.params.empty() || !preset.empty(); }
};

// The steps of `page`'s "Try" section for `lab`. Throws ParamError naming the step when a
// preset is another lab's or a NAME=VALUE names no knob of the lab.
std::vector<LessonStep> lesson_steps(const std::string& lab, const std::vector<HelpBlock>& page);
