#include "app/core/lessons.h"

#include "app/core/registry.h"

#include <algorithm>

std::vector<LessonStep> lesson_steps(const std::string& lab, const std::vector<HelpBlock>& page) {
  std::vector<LessonStep> steps;
  auto knobs = make_lab(lab)->params();
  bool in_try = false;
  nlohmann::json carried = nlohmann::json::object();  // the step before's values
  for (const HelpBlock& b : page) {
    if (b.kind == HelpBlock::Kind::Section || b.kind == HelpBlock::Kind::Title) in_try = b.text == "Try";
    if (!in_try || b.kind != HelpBlock::Kind::Bullet) continue;
    LessonStep step;
    step.text = b.text;
    const std::string where = lab + " lesson, step " + std::to_string(steps.size() + 1);
    nlohmann::json values = carried;
    for (const std::string& span : code_spans(b.text)) {
      if (step.preset.empty() && std::find(b.presets.begin(), b.presets.end(), span) != b.presets.end()) {
        Preset p = find_preset(span);
        if (p.lab != lab) throw ParamError(where + ": " + span + " is the " + p.lab + " lab's preset");
        step.preset = span;
        values = p.params;  // a preset starts from the lab's defaults
        continue;
      }
      auto eq = span.find('=');
      if (eq == std::string::npos || eq == 0 || span.find(' ') != std::string::npos) continue;
      std::string name = span.substr(0, eq);
      const auto& all = knobs.all();
      if (std::none_of(all.begin(), all.end(), [&](const Param& k) { return k.name == name; }))
        throw ParamError(where + ": `" + span + "` names no knob of the " + lab + " lab");
      step.sets.push_back(span);
      values[name] = span.substr(eq + 1);
    }
    step.setup = {lab, where, b.text, values};
    preset_params(step.setup);  // every value checked now: a bad step is refused when the page is read
    carried = values;
    steps.push_back(std::move(step));
  }
  return steps;
}
