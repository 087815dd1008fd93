// A lab's help page (assets/<lab>/help.md), shown in the window's Help tab: "# " a title,
// "## " a section, "- " a bullet, other lines paragraphs, `code` drawn as code; a shipped preset
// named in backticks (`lab/name`) gets a Load button beside its bullet, and the "Try" section's
// bullets are the lab's lesson (app/core/lessons.h), each with a Run button.
#pragma once
#include <string>
#include <vector>

struct HelpBlock {
  enum class Kind { Title, Section, Bullet, Paragraph, Table } kind;
  std::string text;                                 // a table: its cells, joined
  std::vector<std::string> presets;                 // shipped presets it names
  std::vector<std::vector<std::string>> rows = {};  // a table's rows of cells, the header first
};

std::string lab_help_text(const std::string& lab);  // "" where the lab has none
std::vector<HelpBlock> parse_help(const std::string& text);
// The code spans (`...`) of a text, in order.
std::vector<std::string> code_spans(const std::string& text);
struct LessonStep;  // app/core/lessons.h

// How the Help tab walks a page: a block to scroll to the top, the lesson its Try bullets run.
struct HelpView {
  int scroll_to = -1;                               // a block's index (a section), once
  const std::vector<LessonStep>* lesson = nullptr;  // the Try section's steps, in order
  int last_run = -1;                                // the step run last (marked)
};
struct HelpAction {
  std::string load;  // a preset whose Load button was pressed
  int run = -1;      // a lesson step whose Run button was pressed
};
// Draws the page (ImGui) and says what was pressed.
HelpAction draw_help(const std::vector<HelpBlock>& page, HelpView* view = nullptr);
// Text wrapped between words at the content region's edge, `code` spans drawn as code (their
// backticks gone) in a colour and on a shade of their own.
void rich_text(const std::string& text);
