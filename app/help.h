// A lab's help page (assets/<lab>/help.md), shown in the window's Help tab: "# " a title,
// "## " a section, "- " a bullet, other lines paragraphs; a shipped preset named in backticks
// (`lab/name`) gets a Load button beside its bullet.
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
// Draws the page (ImGui); returns the preset whose Load button was pressed, or "".
std::string draw_help(const std::vector<HelpBlock>& page);
