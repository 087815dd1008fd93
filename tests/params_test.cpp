// Typed knobs (app/core/params.h): the handles a lab keeps read what the command line, a preset or the
// panel set by name, a choice reads as its enum, and every lab declares each parameter group in
// one run, so that the panel and --help show it once.
#include "app/core/params.h"
#include "app/core/lab.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

enum class View { Top, Surface, Side };

// A small set with one knob of each kind, as a lab declares them.
struct Knobs {
  ParamSet set;
  Knob<double> speed;
  Knob<int> size;
  Knob<bool> clip;
  Knob<std::string> file;
  Choice<View> view;

  Knobs() {
    set.group("Simulation");
    speed = set.add_float("speed", 4.0, 0.0, 10.0, "wave speed").labelled("Wave speed", "cells/s");
    size = set.add_int("size", 64, 8, 512, "grid side").rebuilds();
    set.group("Picture");
    clip = set.add_bool("clip", false, "clip the mesh");
    file = set.add_text("file", "", "a mesh file").files({".mesh"});
    view = set.add_choice("view", {{View::Top, "top"}, {View::Surface, "surface"}, {View::Side, "side view"}},
                          View::Surface, "where the camera looks from");
  }
  Knobs(const Knobs&) = delete;  // the handles hold this set's address
};

TEST(Knob, ReadsWhatSetByNameWrote) {
  Knobs k;
  EXPECT_DOUBLE_EQ(*k.speed, 4.0);
  EXPECT_EQ(*k.size, 64);
  EXPECT_FALSE(*k.clip);
  EXPECT_EQ(*k.file, "");
  k.set.set("speed", "2.5");
  k.set.set_assignment("size=128");
  k.set.set("clip", "on");
  k.set.set("file", "box.mesh");
  EXPECT_DOUBLE_EQ(k.speed.get(), 2.5);
  EXPECT_EQ(k.size.get(), 128);
  EXPECT_TRUE(k.clip.get());
  EXPECT_EQ(k.file.get(), "box.mesh");
  EXPECT_TRUE(k.set.rebuild_pending);  // size rebuilds
  // the declaring chain reached the parameter
  EXPECT_EQ(param_label(k.speed.param()), "Wave speed (cells/s)");
  EXPECT_EQ(k.file.param().file_types, std::vector<std::string>{".mesh"});
}

TEST(Knob, ReadsANumberAsAnotherType) {
  Knobs k;
  Knob<float> speed = k.speed;
  Knob<uint32_t> size = k.size;
  k.set.set("speed", "0.1");
  EXPECT_EQ(*speed, 0.1f);
  EXPECT_EQ(*size, 64u);
  EXPECT_THROW(Knob<bool>(k.set, k.speed.index()), std::logic_error);  // a number is not a flag
}

TEST(Knob, SetClampsAsThePanelDoes) {
  Knobs k;
  k.speed.set(99.0);
  EXPECT_DOUBLE_EQ(k.set.get("speed"), 10.0);
  EXPECT_FALSE(k.set.rebuild_pending);
  k.size.set(100);
  EXPECT_EQ(k.set.get_int("size"), 100);
  EXPECT_TRUE(k.set.rebuild_pending);
  k.clip.set(true);
  EXPECT_EQ(k.clip.text(), "true");
}

// apply_preset (app/core/presets.cpp) edits a copy and assigns it back; the window assigns the
// panel's values with all(): a lab's handles read the new values after either.
TEST(Knob, StaysValidAfterTheSetIsAssignedACopy) {
  Knobs k;
  ParamSet copy = k.set;
  copy.set("speed", "7");
  copy.set("view", "top");
  EXPECT_DOUBLE_EQ(*k.speed, 4.0);  // not yet
  k.set = copy;
  EXPECT_DOUBLE_EQ(*k.speed, 7.0);
  EXPECT_EQ(*k.view, View::Top);
  ParamSet values = k.set;
  values.set("size", "256");
  k.set.all() = values.all();
  EXPECT_EQ(*k.size, 256);
}

TEST(Choice, ReadsTheEnum) {
  Knobs k;
  EXPECT_EQ(*k.view, View::Surface);
  EXPECT_EQ(k.view.text(), "surface");
  k.set.set("view", "top");
  EXPECT_EQ(k.view.get(), View::Top);
  k.set.set("view", "side-view");  // a choice with spaces is typed with '-' for them
  EXPECT_EQ(*k.view, View::Side);
  EXPECT_EQ(k.set.choice("view"), "side view");
  k.view.set(View::Surface);
  EXPECT_EQ(k.set.choice("view"), "surface");
  EXPECT_EQ(k.set.to_json()["view"], "surface");
}

TEST(Choice, AMisspeltValueIsRefusedWithTheChoices) {
  Knobs k;
  try {
    k.set.set("view", "topp");
    FAIL() << "topp was taken";
  } catch (const ParamError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("view"), std::string::npos) << what;
    EXPECT_NE(what.find("top|surface|side view"), std::string::npos) << what;
  }
  EXPECT_EQ(*k.view, View::Surface);
}

TEST(ParamGroups, AGroupIsDeclaredOnce) {
  ParamSet set;
  set.group("Grid");
  set.add_int("size", 64, 8, 512, "grid side");
  set.group("Grid");  // still open: nothing changes
  set.add_float("dx", 1.0, 0.1, 10.0, "cell size");
  set.group("Picture");
  set.add_bool("smooth", false, "interpolate");
  try {
    set.group("Grid");
    FAIL() << "Grid was reopened";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("'Grid'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(set.all()[1].group, "Grid");
}

// The panel draws a group as a collapsing header where it first appears, and --help lists it:
// each lab's groups come in one run each, and describe() names each once.
TEST(ParamGroups, EveryLabDeclaresEachGroupInOneRun) {
  for (auto& name : lab_names()) {
    SCOPED_TRACE(name);
    auto lab = make_lab(name);
    const ParamSet& set = lab->params();
    std::map<std::string, int> runs;
    for (size_t i = 0; i < set.all().size(); ++i)
      if (i == 0 || set.all()[i].group != set.all()[i - 1].group) ++runs[set.all()[i].group];
    for (auto& [group, count] : runs) EXPECT_EQ(count, 1) << group;
    std::string help = "\n" + set.describe();
    for (auto& [group, count] : runs) {
      std::string header = "\n  " + group + ":\n";
      size_t first = help.find(header);
      EXPECT_NE(first, std::string::npos) << group;
      EXPECT_EQ(help.find(header, first + 1), std::string::npos) << group << " listed twice";
    }
  }
}

// A knob's help is one short line (`vklab --help` and the panel's tooltip show it); the
// prose around it is in the lab's help page.
TEST(ParamHelp, EveryKnobsHelpIsOneShortLine) {
  for (auto& name : lab_names()) {
    auto lab = make_lab(name);
    for (auto& p : lab->params().all()) {
      EXPECT_FALSE(p.help.empty()) << name << " " << p.name;
      EXPECT_LE(p.help.size(), 100u) << name << " " << p.name << ": " << p.help;
      EXPECT_EQ(p.help.find('\n'), std::string::npos) << name << " " << p.name;
    }
  }
}

}  // namespace
