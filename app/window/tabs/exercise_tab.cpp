#include "app/window/tabs/exercise_tab.h"
#include "compute/io/platform.h"

#include <utility>

#include "app/core/exercises.h"
#include "app/widgets/warning_text.h"
#include "app/window/tabs/difference_picture.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace {

const ImVec4 kPass{0.4f, 0.9f, 0.45f, 1}, kFail{1, 0.4f, 0.35f, 1}, kNote{0.55f, 0.8f, 1.0f, 1};

std::string num(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.3g", v);
  return s;
}
std::string ms(double v) { return v > 0 ? num(v) : "n/a"; }

// "layout=buffer, operator=axpby": an exercise's lab settings as the tab says them.
std::string joined(const std::vector<std::string>& settings) {
  std::string text;
  for (const std::string& a : settings) text += (text.empty() ? "" : ", ") + a;
  return text;
}

}  // namespace

void ExerciseTab::say(const std::string& line) {
  std::printf("exercise: %s\n", line.c_str());
  std::fflush(stdout);
}

void ExerciseTab::open(const std::string& name, const std::string& file) {
  focus_editor_ = pane_ = true;  // the caret in the editor, the editor beside the picture
  message_.clear();
  try {
    const exercise::Exercise& e = shipped_exercise(name);
    auto path = file.empty() ? user_kernel_path(e) : std::filesystem::path(file);
    if (make_user_kernel(e, path)) message_ = "made " + path.string() + " from the starting kernel";
    editor_.set_text(read_text_file(path));
    ex_ = &e;
    file_.watch(path);
    task_ = parse_help(e.task());
    live_ = e.live;
    report_ = {};
    checked_ = false, shown_case_ = 0, live_next_ = 0;
    compile_pending_ = true;
    for (size_t i = 0; i < shipped_exercises().size(); ++i)
      if (shipped_exercises()[i].name == name) chosen_ = int(i);
  } catch (const std::exception& e) {
    message_ = e.what();
  }
}

void ExerciseTab::release_gpu(Session& s) {
  if (in_lab_) s.lab().use_kernel(ex_->op, nullptr);
  in_lab_ = false;
  kernel_.reset();
  ctx_ = nullptr;
  compile_pending_ = ex_ != nullptr;
}

void ExerciseTab::stop_lab(Session& s, const std::string& why) {
  if (in_lab_ && lab_ == &s.lab()) s.lab().use_kernel(ex_->op, nullptr);
  in_lab_ = false;
  lab_message_ = why;
}

void ExerciseTab::offer_to_lab(Session& s) {
  lab_ = &s.lab();
  if (!kernel_ || !report_.pass || s.lab().name() != ex_->lab) return;
  in_lab_ = s.lab().use_kernel(ex_->op, kernel_.get());
  lab_message_ = in_lab_ ? "the lab runs your kernel"
                         : "the lab does not run your kernel (where a setting stands in the way, its panel "
                           "says which): it is checked all the same";
}

void ExerciseTab::set_lab(Session& s) {
  if (!ex_) return;
  if (s.lab().name() != ex_->lab) s.switch_lab(ex_->lab);
  auto before = s.lab().params().all();
  try {
    for (const std::string& a : ex_->lab_settings) s.lab().params().set_assignment(a);
  } catch (const std::exception&) {
    s.lab().params().all() = before;  // a malformed check.json changes no knob
    throw;
  }
  s.error.clear();
  s.apply_rebuild();
  if (!s.error.empty()) return;  // the session says why; the knobs are back
  std::string knobs = joined(ex_->lab_settings);
  say(ex_->name + ": the lab set for your kernel" + (knobs.empty() ? "" : " (" + knobs + ")"));
  if (kernel_ && report_.pass) offer_to_lab(s);
  if (in_lab_) say(ex_->name + ": " + lab_message_);
}

bool ExerciseTab::lab_is_set(const Session& s) const {
  if (!ex_ || s.lab().name() != ex_->lab) return false;
  const nlohmann::json knobs = s.lab().params().to_json();
  for (const std::string& a : ex_->lab_settings) {
    size_t eq = a.find('=');
    auto it = knobs.find(a.substr(0, eq));
    if (it == knobs.end()) return false;
    if ((it->is_string() ? it->get<std::string>() : it->dump()) != a.substr(eq + 1)) return false;
  }
  return true;
}

void ExerciseTab::between_frames(Session& s) {
  if (!ex_) return;
  if (ctx_ && ctx_ != &s.ctx()) {  // the device was made anew without release_gpu(): the old kernel is left
    (void)kernel_.release();
    in_lab_ = false, compile_pending_ = true;
  }
  ctx_ = &s.ctx();
  if (in_lab_ && lab_ != &s.lab()) in_lab_ = false, lab_message_ = "another lab: it runs its own kernels";
  if (in_lab_ && kernel_) {  // the lab's runs of the kernel since the last frame
    std::string trouble = kernel_->trouble(kernel_->take_status());
    if (!trouble.empty()) stop_lab(s, trouble + " (in the lab): the lab runs its own kernel again");
  }
  try {
    if (start_over_pending_) start_over();
    if (save_pending_) save();
    if (file_.changed()) file_changed();
    if (set_lab_pending_) set_lab(s);
    start_over_pending_ = save_pending_ = set_lab_pending_ = false;
    if (compile_pending_) {
      compile_pending_ = check_pending_ = false;
      compile_and_check(s);
    } else if (check_pending_) {
      check_pending_ = false;
      check_all(s);
    } else if (live_ && kernel_ && checked_) {
      check_live(s);
    }
  } catch (const gpu::GpuFailure&) {
    throw;  // the window's to handle
  } catch (const std::exception& e) {
    message_ = e.what();
  }
}

// The file changed on disk (another editor saved it): its text is the kernel's. Edits made
// here and not saved are kept beside it, never dropped.
void ExerciseTab::file_changed() {
  std::string disk = read_text_file(file_.path());
  if (disk == editor_.text()) {
    editor_.saved();
    return;
  }
  if (editor_.dirty()) {
    auto keep = file_.path();
    keep += ".unsaved";
    write_text_file(keep, editor_.text());
    message_ = file_.path().string() + " changed on disk: loaded; your unsaved edits are in " + keep.string();
  }
  editor_.set_text(disk);
  compile_pending_ = true;
}

void ExerciseTab::save() {
  write_text_file(file_.path(), editor_.text());
  editor_.saved();
  file_.seen();
  compile_pending_ = true;
}

// The starting kernel again; the file as it was goes to FILE.bak first.
void ExerciseTab::start_over() {
  auto bak = file_.path();
  bak += ".bak";
  write_text_file(bak, editor_.text());
  editor_.set_text(ex_->start());
  save();
  message_ = "the starting kernel again; your kernel is in " + bak.string();
}

void ExerciseTab::compile_and_check(Session& s) {
  exercise::CompileOutcome out;
  auto k = exercise::UserKernel::compile(s.ctx(), editor_.text(), file_.path().filename().string(), out);
  compile_ = out;
  if (!k) {
    int line = 0;
    for (auto& e : out.errors)
      if (e.line) {
        line = e.line;
        break;
      }
    say(ex_->name + ": " + file_.path().string() + " does not compile" +
        (line ? " (first error on line " + std::to_string(line) + ")" : "") +
        (kernel_ ? "; the last kernel that compiled stays" : ""));
    return;
  }
  say(ex_->name + ": " + file_.path().string() + " compiled");
  bool was_in_lab = in_lab_;
  if (in_lab_) stop_lab(s, "");
  kernel_ = std::move(k);
  check_all(s);
  if (was_in_lab) {
    if (report_.pass)
      offer_to_lab(s);
    else
      lab_message_ = "your new kernel fails its check: the lab runs its own";
  }
}

void ExerciseTab::check_all(Session& s) {
  if (!kernel_) return;
  report_ = exercise::check_kernel(s.ctx(), *ex_, *kernel_);
  report_.compile = compile_;
  checked_ = true;
  shown_case_ = std::clamp(shown_case_, 0, int(report_.cases.size()) - 1);
  say(ex_->name + ": " + report_.verdict);
  if (in_lab_ && !report_.pass) stop_lab(s, "your kernel fails its check: the lab runs its own");
}

// One case a frame, in turn: the kernel runs beside the shipped one all the time.
void ExerciseTab::check_live(Session& s) {
  size_t i = live_next_++ % report_.cases.size();
  report_.cases[i] = exercise::check_case(s.ctx(), *ex_, ex_->cases[i], *kernel_);
  report_.pass = std::all_of(report_.cases.begin(), report_.cases.end(), [](auto& c) { return c.pass; });
  report_.verdict = exercise::verdict(*ex_, report_);
  if (in_lab_ && !report_.pass) stop_lab(s, "your kernel failed a case: the lab runs its own");
}

void ExerciseTab::draw(Session& s) {
  const auto* all = [&]() -> const std::vector<exercise::Exercise>* {
    try {
      return &shipped_exercises();
    } catch (const std::exception& e) {
      message_ = e.what();
      return nullptr;
    }
  }();
  if (all) {
    std::string preview = ex_ ? ex_->name : "choose an exercise";
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##exercise", preview.c_str())) {
      // The lab's own first, then the others.
      for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < all->size(); ++i) {
          const auto& e = (*all)[i];
          if ((e.lab == s.lab().name()) != (pass == 0)) continue;
          std::string label = e.name + ": " + e.title;
          if (ImGui::Selectable(label.c_str(), int(i) == chosen_) && int(i) != chosen_) {
            if (in_lab_) stop_lab(s, "");
            open(e.name);
          }
        }
      ImGui::EndCombo();
    }
  }
  if (!message_.empty()) {
    warning_text({1, 0.75f, 0.3f, 1}, "%s", message_.c_str());
    if (ImGui::SmallButton("dismiss##message")) message_.clear();
  }
  if (!ex_) {
    ImGui::TextWrapped(
        "Each exercise hands you one of a lab's kernels to write: a task, a starting kernel with a gap or "
        "a bug, and a check that runs your kernel beside the lab's own on inputs chosen to catch the usual "
        "mistakes, against the lab's CPU twin. Choose one above; its kernel goes into a file of yours in %s.",
        exercise_folder().string().c_str());
    return;
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(kNote, "%s", ex_->title.c_str());
  ImGui::TextDisabled("%s", ex_->source.c_str());
  ImGui::PopTextWrapPos();
  if (s.lab().name() != ex_->lab) {
    ImGui::TextDisabled("an exercise of the %s lab", ex_->lab.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("open that lab")) s.switch_lab(ex_->lab);
  }
  if (ImGui::CollapsingHeader("Task and hints")) (void)draw_help(task_);

  ImGui::Checkbox("Editor beside the picture", &pane_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a pane of its own, resizable by its right edge; else here");
  if (!pane_) editor_controls(ImGui::GetContentRegionAvail().y * 0.45f);
  if (kernel_) draw_report(s);
}

// The editor and what acts on it: the file, Save and check, Check again, Start over, the
// editor `height` pixels tall (at least 160), the compiler's messages under it.
void ExerciseTab::editor_controls(float height) {
  ImGui::TextDisabled("%s%s", file_.path().string().c_str(), editor_.dirty() ? " (edited, not saved)" : "");
  if (ImGui::Button("Save and check")) save_pending_ = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Ctrl+S in the editor; saving the file in another editor checks it too");
  ImGui::SameLine();
  if (ImGui::Button("Check again")) check_pending_ = true;
  ImGui::SameLine();
  if (ImGui::Button("Start over")) start_over_pending_ = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the starting kernel again (yours goes to %s.bak)", platform::utf8(file_.path()).c_str());
  // the checker's first wrong case marks no line; the compiler's errors do (at their lines)
  if (editor_.draw(compile_.errors, std::max(160.0f, height), std::exchange(focus_editor_, false)))
    save_pending_ = true;
  if (!compile_.ok && !compile_.messages.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kFail);
    ImGui::TextWrapped("%s", compile_.messages.c_str());
    ImGui::PopStyleColor();
    if (kernel_) ImGui::TextDisabled("the last kernel that compiled is the one checked");
  }
}

// The pane beside the picture: the exercise's title, the editor with its controls, the verdict.
void ExerciseTab::draw_pane(Session& s) {
  (void)s;
  ImGui::TextColored(kNote, "%s", ex_->title.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(%s; the task, cases and lab runs: Exercise tab)", ex_->name.c_str());
  float verdict = checked_ ? 2.5f * ImGui::GetFrameHeightWithSpacing() : 0;
  float messages = !compile_.ok && !compile_.messages.empty() ? 4 * ImGui::GetTextLineHeightWithSpacing() : 0;
  editor_controls(ImGui::GetContentRegionAvail().y - verdict - messages - ImGui::GetFrameHeightWithSpacing());
  if (checked_) {
    ImGui::PushStyleColor(ImGuiCol_Text, report_.pass ? kPass : kFail);
    ImGui::TextWrapped("%s", report_.verdict.c_str());
    ImGui::PopStyleColor();
  }
}

const KernelEditor::View* ExerciseTab::editor_view() const { return ex_ ? &editor_.view() : nullptr; }

void ExerciseTab::draw_report(Session& s) {
  if (!checked_) return;
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, report_.pass ? kPass : kFail);
  ImGui::TextWrapped("%s", report_.verdict.c_str());
  ImGui::PopStyleColor();
  ImGui::TextDisabled("tolerance: %s, %s",
                      ex_->tolerance.ulps == 0 ? "bit for bit" : (num(ex_->tolerance.ulps) + " ulps").c_str(),
                      ex_->tolerance.what.c_str());
  ImGui::TextDisabled(report_.robust ? "writes past an array: guard words, then dropped by the device (robust access)"
                                     : "writes past an array: guard words only (start vklab with --exercise NAME for "
                                       "robust buffer access)");
  ImGui::Checkbox("Check live", &live_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("run one case a frame, your kernel beside the lab's (else on save and on Check again)");
  if (s.lab().name() == ex_->lab) {
    ImGui::SameLine();
    bool want = in_lab_;
    ImGui::BeginDisabled(!report_.pass && !in_lab_);
    if (ImGui::Checkbox("Run the lab on my kernel", &want)) {
      if (want)
        offer_to_lab(s);
      else
        stop_lab(s, "the lab runs its own kernel");
    }
    ImGui::EndDisabled();
    if (!report_.pass && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("once your kernel passes its check");
    if (!in_lab_ && !lab_is_set(s)) {
      if (ImGui::SmallButton("Set the lab for my kernel")) set_lab_pending_ = true;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the lab's knobs under which it runs your kernel: %s (the others stay)",
                          joined(ex_->lab_settings).c_str());
    }
  }
  if (!lab_message_.empty()) ImGui::TextDisabled("%s", lab_message_.c_str());
  if (!s.ctx().validation_enabled()) ImGui::TextDisabled("validation is off (vklab --validate checks your Vulkan use)");

  // A row a case: its verdict, its worst error in ulps against the CPU twin and against the
  // lab's kernel, and both GPU times; the case chosen is shown in full below.
  if (ImGui::BeginTable("cases", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("case", ImGuiTableColumnFlags_WidthStretch);
    for (const char* h : {"", "ulps", "lab's", "GPU ms (lab's)"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < report_.cases.size(); ++i) {
      const auto& c = report_.cases[i];
      double ulps = 0, lab = 0;
      for (auto& a : c.arrays) ulps = std::max(ulps, a.max_ulps), lab = std::max(lab, a.shipped_ulps);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (ImGui::Selectable(c.name.c_str(), int(i) == shown_case_, ImGuiSelectableFlags_SpanAllColumns))
        shown_case_ = int(i);
      ImGui::TableNextColumn();
      ImGui::TextColored(c.pass ? kPass : kFail, c.pass ? "pass" : "FAIL");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(num(ulps).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(num(lab).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted((ms(c.user_ms) + " (" + ms(c.shipped_ms) + ")").c_str());
    }
    ImGui::EndTable();
  }
  if (shown_case_ >= 0 && size_t(shown_case_) < report_.cases.size()) draw_case(report_.cases[size_t(shown_case_)]);
}

void ExerciseTab::draw_case(const exercise::CaseCheck& c) {
  ImGui::TextColored(kNote, "%s", c.name.c_str());
  if (!c.why.empty()) ImGui::TextDisabled("%s", c.why.c_str());
  if (!c.trouble.empty()) warning_text(kFail, "%s", c.trouble.c_str());
  for (auto& m : c.validation) warning_text(kFail, "validation %s", m.c_str());
  for (auto& a : c.arrays) {
    ImGui::TextWrapped("%s: max abs error %s, relative %s, %s ulps; against the lab's kernel %s ulps", a.name.c_str(),
                       num(a.max_abs).c_str(), num(a.max_rel).c_str(), num(a.max_ulps).c_str(),
                       num(a.shipped_ulps).c_str());
    if (a.wrong) {
      ImGui::PushStyleColor(ImGuiCol_Text, kFail);
      ImGui::TextWrapped("%zu of %zu words wrong; the first: %s = %s, the CPU twin says %s%s", a.wrong, a.words,
                         exercise::wrong_word_name(a).c_str(), num(a.got).c_str(), num(a.want).c_str(),
                         a.allowed > 0 ? (" (allowed " + num(a.allowed) + ")").c_str() : "");
      ImGui::PopStyleColor();
      ImGui::TextWrapped("from %s", a.inputs.c_str());
    }
    if (a.shipped_wrong) warning_text(kFail, "the lab's own kernel is outside the tolerance here: a bug of ours");
    ImGui::PushID(a.name.c_str());
    draw_difference_picture(a, ImGui::GetContentRegionAvail().x, 220);
    ImGui::PopID();
  }
}
