// The Exercise tab: a shipped exercise's task, its kernel in a file of the user's (edited in a
// pane beside the picture, or in the tab, with line numbers, GLSL in colour and the compiler's
// complaints at their lines, or in any editor: the file is watched), compiled on every save while
// the last good kernel stays, and checked against the CPU twin and the lab's shipped kernel: the
// verdict, each case's errors and both GPU times, the first wrong element with its inputs, the
// difference picture. A kernel that passes can run in the lab in place of its own, where the lab
// offers it (Lab::use_kernel).
#pragma once
#include "app/core/help.h"
#include "app/core/session.h"
#include "app/widgets/kernel_editor.h"
#include "app/window/watched_file.h"
#include "compute/exercise/check.h"

#include <memory>
#include <string>

class ExerciseTab {
 public:
  // Opens exercise `name` (lab/name) with its kernel in `file` ("": the user's copy, made from
  // the starting kernel if it does not exist yet). A problem is said in the tab.
  void open(const std::string& name, const std::string& file = "");
  // Between frames (the GPU idle for the lab): a changed file read, a save or a check asked
  // for, the live check, the lab's runs of the kernel looked at.
  void between_frames(Session& s);
  void draw(Session& s);
  // The editor pane beside the picture (the window places it), when shown.
  bool pane_shown() const { return ex_ && pane_; }
  void draw_pane(Session& s);
  // The editor's caret and view (nullptr: no exercise open): said when the window closes.
  const KernelEditor::View* editor_view() const;
  // Before the session's device goes: the kernel made on it goes first (compiled again on the next).
  void release_gpu(Session& s);
  // The button "Set the lab for my kernel": the exercise's lab, its knobs set to the exercise's
  // (Exercise::lab_settings, the others kept) and rebuilt, then the kernel offered if it passed.
  void set_lab(Session& s);
  bool lab_runs_kernel() const { return in_lab_; }
  // The session runs the exercise's lab with its knobs (Exercise::lab_settings) as they are.
  bool lab_is_set(const Session& s) const;

 private:
  void compile_and_check(Session& s);
  void check_all(Session& s);
  void check_live(Session& s);
  void file_changed();
  void save();
  void start_over();
  void stop_lab(Session& s, const std::string& why);
  void offer_to_lab(Session& s);
  void draw_report(Session& s);
  void editor_controls(float height);
  void draw_case(const exercise::CaseCheck& c);
  void say(const std::string& line);  // on stdout too, for scripts and tests

  const exercise::Exercise* ex_ = nullptr;
  std::vector<HelpBlock> task_;
  WatchedFile file_;
  KernelEditor editor_;
  std::unique_ptr<exercise::UserKernel> kernel_;  // the last kernel that compiled
  const gpu::Context* ctx_ = nullptr;             // where kernel_ was made
  exercise::CompileOutcome compile_;              // the last compile
  exercise::Report report_;                       // the last check of kernel_
  bool checked_ = false;
  int shown_case_ = 0;
  bool live_ = false;  // check a case every frame
  size_t live_next_ = 0;
  bool in_lab_ = false;  // the lab runs kernel_
  const Lab* lab_ = nullptr;
  std::string message_, lab_message_;
  bool compile_pending_ = false, save_pending_ = false, check_pending_ = false, start_over_pending_ = false,
       set_lab_pending_ = false;
  int chosen_ = -1;            // in the exercise list
  bool pane_ = true;           // the editor in its pane beside the picture (else in the tab)
  bool focus_editor_ = false;  // the caret goes into the editor next frame (an exercise opened)
};
