#include "app/labs/floatlab/paranoia.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

using namespace floatlab;

namespace {
// A line with the class paranoia.c counts for it in front, unless its message names it already
// ("DIVISION: FAILURE: ..."); where the words name another class, the count is said after.
std::string labelled(const ParanoiaLine& l) {
  const char* v = verdict_name(l.verdict);
  std::string out = l.verdict == Verdict::Ok || l.message.find(v) != std::string::npos
                        ? l.message
                        : std::string(v) + ": " + l.message;
  if (l.disagrees())
    out += std::string(" [its words: ") + verdict_name(l.says) +
           "; paranoia.c counts: " + (l.verdict == Verdict::Ok ? "nothing" : verdict_name(l.verdict)) + "]";
  return out;
}

// Where Paranoia's words and its count differ, one line each.
std::string disagreement_text(const ParanoiaReport& r) {
  std::string out;
  for (auto* l : r.disagreements())
    out += "  " + l->check + ": words say " + verdict_name(l->says) + ", counted as " +
           (l->verdict == Verdict::Ok ? std::string("nothing") : verdict_name(l->verdict)) + ": " +
           l->message.substr(0, 90) + (l->message.size() > 90 ? "..." : "") + "\n";
  return out;
}
}  // namespace

std::vector<ParanoiaReport> paranoia_stages(gpu::Context& ctx, uint32_t random_pairs) {
  FloatMachine m(ctx);
  std::vector<ParanoiaReport> out;
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment})
    if (m.has(s))
      out.push_back(
          paranoia([&](const std::vector<Program>& ps) { return m.run(s, ps); }, stage_name(s), random_pairs));
  return out;
}

std::string stage_differences(const std::vector<ParanoiaReport>& stages) {
  // check by check: a stage's messages under a check against the first stage's
  auto group = [](const ParanoiaReport& r, const std::string& check) {
    std::string out;
    for (auto& l : r.lines)
      if (l.check == check) out += (out.empty() ? "" : "; ") + l.message;
    return out;
  };
  std::string out;
  for (size_t k = 1; k < stages.size(); ++k) {
    std::vector<std::string> checks;
    for (auto* r : {&stages[0], &stages[k]})
      for (auto& l : r->lines)
        if (std::find(checks.begin(), checks.end(), l.check) == checks.end()) checks.push_back(l.check);
    for (auto& c : checks) {
      std::string a = group(stages[0], c), b = group(stages[k], c);
      if (a != b)
        out += stages[k].stage + " stage, " + c + ": " + b + "\n  where the " + stages[0].stage + " stage says: " + a +
               "\n";
    }
  }
  return out;
}

void print_paranoia(const std::vector<ParanoiaReport>& stages) {
  if (stages.empty()) return;
  std::printf(
      "\nParanoia (Kahan 1983, as Da Graça 2006 annex A ran it on a 7800 GTX), every operation in the %s stage\n",
      stages[0].stage.c_str());
  std::string check;
  for (auto& l : stages[0].lines) {
    if (l.check != check && !l.check.empty()) std::printf("%s\n", l.check.c_str()), check = l.check;
    std::printf("  %s\n", labelled(l).c_str());
  }
  const auto& annex = annex_a_7800gtx();
  std::printf("\n%-58s | %s\n", "GeForce 7800 GTX, 2006 (annex A)", ("this device, " + stages[0].stage).c_str());
  auto ours = stages[0].summary();
  for (size_t i = 0; i < std::max(annex.size(), ours.size()); ++i)
    std::printf("%-58s | %s\n", i < annex.size() ? annex[i].c_str() : "", i < ours.size() ? ours[i].c_str() : "");
  std::string words = disagreement_text(stages[0]);
  if (!words.empty())
    std::printf("\nwhere Paranoia's words and its tally disagree (the tally is netlib's paranoia.c's):\n%s",
                words.c_str());
  std::string diff = stage_differences(stages);
  std::printf("\nstages run: ");
  for (auto& s : stages) std::printf("%s ", s.stage.c_str());
  std::printf("\n%s", diff.empty() ? "every stage gives the same messages\n" : diff.c_str());
}

nlohmann::json paranoia_json(const std::vector<ParanoiaReport>& stages) {
  nlohmann::json out = {{"annex_a_7800gtx", annex_a_7800gtx()}, {"stage_differences", stage_differences(stages)}};
  for (auto& r : stages) {
    nlohmann::json lines = nlohmann::json::array(), bounds = nlohmann::json::array();
    for (auto& l : r.lines)
      lines.push_back({{"check", l.check},
                       {"message", l.message},
                       {"verdict", verdict_name(l.verdict)},
                       {"words_say", verdict_name(l.says)}});
    for (auto& b : r.bounds) bounds.push_back({{"op", b.op}, {"lo_ulps", b.lo}, {"hi_ulps", b.hi}, {"count", b.count}});
    out["stages"][r.stage] = {{"lines", lines},
                              {"summary", r.summary()},
                              {"radix", r.radix},
                              {"precision_digits", r.precision},
                              {"smallest_positive", r.smallest},
                              {"overflow_threshold", r.overflow},
                              {"underflow_threshold", r.underflow_threshold},
                              {"overflow_saturates_at", r.saturation},
                              {"gradual_underflow", r.gradual_underflow},
                              {"error_bounds", bounds},
                              {"failures", r.count(Verdict::Failure)},
                              {"serious_defects", r.count(Verdict::SeriousDefect)},
                              {"defects", r.count(Verdict::Defect)},
                              {"flaws", r.count(Verdict::Flaw)},
                              {"diagnosis", r.diagnosis()},
                              {"diagnosis_without_pow", r.diagnosis(true)},
                              {"tally",
                               "as netlib's paranoia.c counts; 'words_say' names the class a line's words "
                               "name where it differs"}};
  }
  return out;
}

TableData paranoia_table(const std::vector<ParanoiaReport>& stages) {
  TableData t{"floatlab-paranoia",
              "Paranoia on this GPU beside Da Graça 2006's annex A (GeForce 7800 GTX)",
              {"7800 GTX (2006)"}};
  for (auto& s : stages) t.header.push_back(s.stage);
  const auto& annex = annex_a_7800gtx();
  std::vector<std::vector<std::string>> sums;
  size_t rows = annex.size();
  for (auto& s : stages) sums.push_back(s.summary()), rows = std::max(rows, sums.back().size());
  for (size_t i = 0; i < rows; ++i) {
    std::vector<std::string> row = {i < annex.size() ? annex[i] : ""};
    for (auto& s : sums) row.push_back(i < s.size() ? s[i] : "");
    t.rows.push_back(std::move(row));
  }
  return t;
}

void paranoia_panel(const std::vector<ParanoiaReport>& stages) {
  if (stages.empty() || !ImGui::CollapsingHeader("Paranoia (annex A)")) return;
  ImGui::TextWrapped(
      "Kahan's Paranoia, every operation on this GPU (the comparisons on the CPU), beside what the "
      "report's adaptation printed for a GeForce 7800 GTX in 2006. The tally is netlib's paranoia.c's: "
      "where a line's words name another class than the one the program counts, the log says so.");
  table(paranoia_table(stages));
  std::string words = disagreement_text(stages[0]);
  if (!words.empty()) ImGui::TextWrapped("Words and tally disagree:\n%s", words.c_str());
  std::string diff = stage_differences(stages);
  ImGui::TextWrapped("%s", diff.empty() ? "Every stage gives the same messages." : diff.c_str());
  for (auto& s : stages)
    if (ImGui::TreeNode(("Whole log, " + s.stage).c_str())) {
      for (auto& l : s.lines) ImGui::TextWrapped("%s", labelled(l).c_str());
      ImGui::TreePop();
    }
}

StageTable stage_table(gpu::Context& ctx, uint32_t random_pairs) {
  FloatMachine m(ctx);
  StageTable t;
  std::vector<Stage> stages;
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment})
    if (m.has(s)) stages.push_back(s), t.stages.push_back(stage_name(s));
  t.rows = stage_probes(m, stages, random_pairs);
  return t;
}

void print_stage_table(const StageTable& t) {
  std::printf("\nthe probes in each stage (the report tested vertex and fragment processors apart)\n%-10s %-56s %-8s",
              "test", "question", "IEEE");
  for (auto& s : t.stages) std::printf(" %-16s", s.c_str());
  std::printf(" stages\n");
  for (auto& r : t.rows) {
    std::printf("%-10s %-56s %-8s", r.test.c_str(), r.question.c_str(), r.ieee.c_str());
    for (auto& f : r.found) std::printf(" %-16s", f.c_str());
    std::printf(" %s\n", r.stages_agree() ? "agree" : "DIFFER");
  }
}

nlohmann::json stage_table_json(const StageTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto& r : t.rows)
    rows.push_back({{"test", r.test},
                    {"question", r.question},
                    {"ieee", r.ieee},
                    {"found", r.found},
                    {"stages_agree", r.stages_agree()}});
  return {{"stages", t.stages}, {"rows", rows}};
}

TableData stage_table_data(const StageTable& t) {
  TableData d{"floatlab-stages",
              "The probes in each stage (Da Graça 2006 tested vertex and fragment processors apart)",
              {"test", "question", "IEEE"}};
  d.sentences = 1;
  for (auto& s : t.stages) d.header.push_back(s);
  for (auto& r : t.rows) {
    std::vector<std::string> row = {r.test, r.question, r.ieee};
    std::vector<uint32_t> colours(3, 0);
    for (auto& f : r.found) row.push_back(f), colours.push_back(r.stages_agree() ? 0 : 0xff9933u);
    d.rows.push_back(std::move(row));
    d.colours.push_back(std::move(colours));
  }
  return d;
}

void stage_table_panel(const StageTable& t) {
  if (t.rows.empty() || !ImGui::CollapsingHeader("The probes in each stage")) return;
  table(stage_table_data(t));
}
