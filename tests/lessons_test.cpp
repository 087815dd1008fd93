// Every lab's lesson (its help page's Try steps, app/core/lessons.h) runs: each step applies as the
// Help tab's Run button applies it (Session::load_preset), starts at step 0 and steps with no
// error and no validation message (a step that says its setup is refused must be). And the steps are read as written:
// presets, NAME=VALUE spans, a step without a preset building on the one before.
#include "app/core/lessons.h"
#include "app/core/registry.h"
#include "app/core/session.h"
#include "tests/helpers.h"

#include <cmath>
#include <map>

TEST(Lessons, StepsAreReadFromTheTrySection) {
  auto page = parse_help(
      "# T\n## Source\n- not a step `wave/drop`\n## Try\n- Load `wave/drop`: a ring.\n"
      "- Then set **Time scheme** = seed (`scheme=seed`, `c`): it fades.\n- Press Left.\n"
      "- Set `storage=banded` and `sponge=0`.\n## Look for\n- not a step either\n");
  auto steps = lesson_steps("wave", page);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].preset, "wave/drop");
  EXPECT_TRUE(steps[0].sets.empty());
  EXPECT_EQ(steps[1].preset, "");
  EXPECT_EQ(steps[1].sets, std::vector<std::string>{"scheme=seed"});
  const Preset& drop = find_preset("wave/drop");
  for (auto& [name, value] : drop.params.items()) {
    if (name != "scheme") {
      EXPECT_EQ(steps[1].setup.params[name], value) << name;
    }
  }
  EXPECT_EQ(steps[1].setup.params["scheme"], "seed");
  EXPECT_EQ(steps[2].setup.params, steps[1].setup.params);  // builds on the step before
  EXPECT_EQ(steps[3].setup.params["storage"], "banded");
  EXPECT_EQ(steps[3].setup.params["scheme"], "seed");
  EXPECT_EQ(steps[3].setup.lab, "wave");
  // a knob the lab does not have, a bad value, another lab's preset: refused, naming the step
  for (std::string bad : {"- Set `nope=1`.\n", "- Set `scheme=wavy`.\n", "- Load `diffusion/cold-border`.\n"}) {
    try {
      lesson_steps("wave", parse_help("## Try\n- Load `wave/drop`.\n" + bad));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find("wave lesson, step 2"), std::string::npos) << e.what();
    }
  }
}

// A lab and a part of its steps (every n-th from `part`), each part a process: each step's
// setup is whole, and the parts keep a test in its time on lavapipe. The machining lab's steps
// make large stocks; the float lab's are quick once its probes have run at the start.
size_t parts_of(const std::string& lab) {
  static const std::map<std::string, size_t> parts = {{"machining", 5}, {"cloth", 3}, {"mesh", 3}};
  auto it = parts.find(lab);
  return it == parts.end() ? 2 : it->second;
}
std::vector<std::string> lab_parts() {
  std::vector<std::string> out;
  for (auto& lab : lab_names())
    for (size_t part = 0; part < parts_of(lab); ++part) out.push_back(lab + "_" + std::to_string(part));
  return out;
}

class LessonsOfLab : public ::testing::TestWithParam<std::string> {};

TEST_P(LessonsOfLab, EveryStepAppliesFromStepZeroAndRuns) {
  const std::string lab = GetParam().substr(0, GetParam().rfind('_'));
  const size_t part = std::stoul(GetParam().substr(GetParam().rfind('_') + 1));
  auto steps = lesson_steps(lab, parse_help(lab_help_text(lab)));
  ASSERT_GE(steps.size(), 5u) << "a lesson of a few steps at least";
  gpu::ContextOptions co = validated_options();
  auto first = make_lab(lab);  // built with the sample sizes the steps get below
  for (const Param& p : first->params().all())
    if (p.group == "Sample sizes") first->params().set(p.name, std::to_string(int64_t(p.min)));
  Session s(co, std::move(first), Session::Parts{false, false});
  for (size_t i = part; i < steps.size(); i += parts_of(lab)) {
    SCOPED_TRACE(lab + " lesson, step " + std::to_string(i + 1) + ": " + steps[i].text);
    s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });  // mid-run, as in the window
    s.collect_frame();
    // The sample sizes a step does not name at their smallest (the float lab's probes run again
    // at each start, on millions of inputs against MPFR): what is tested is that the step applies.
    Preset setup = steps[i].setup;
    for (const Param& p : s.lab().params().all())
      if (p.group == "Sample sizes" && !setup.params.contains(p.name)) setup.params[p.name] = int64_t(p.min);
    s.load_preset(setup);
    ASSERT_TRUE(s.error.empty()) << s.error;
    s.apply_rebuild();
    if (steps[i].text.find("refused") != std::string::npos) {  // a step that shows a refusal: said, the lab kept
      EXPECT_FALSE(s.error.empty()) << "the step says its setup is refused";
      s.error.clear();
      continue;
    }
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.lab().steps_done(), 0u);
    // the values the step names, as it names them (a lab may derive others: a pose its pins)
    auto values = preset_params(setup).to_json(), now = s.lab().params().to_json();
    for (auto& [name, value] : steps[i].setup.params.items()) EXPECT_EQ(now[name], values[name]) << name;
    s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 2); });
    s.collect_frame();
    EXPECT_EQ(s.ctx().validation_count(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Labs, LessonsOfLab, ::testing::ValuesIn(lab_parts()),
                         [](const auto& info) { return info.param; });
