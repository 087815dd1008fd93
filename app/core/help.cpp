#include "app/core/help.h"

#include "app/core/assets.h"
#include "app/core/lessons.h"
#include "app/core/presets.h"

#include <imgui.h>

#include <fstream>
#include <sstream>

std::string lab_help_text(const std::string& lab) {
  try {
    std::ifstream in(find_asset(lab + "/help.md"));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<std::string> code_spans(const std::string& text) {
  std::vector<std::string> spans;
  for (size_t a = text.find('`'); a != std::string::npos; a = text.find('`', a + 1)) {
    size_t b = text.find('`', a + 1);
    if (b == std::string::npos) break;
    spans.push_back(text.substr(a + 1, b - a - 1));
    a = b;
  }
  return spans;
}

namespace {

// The shipped presets a text names in backticks.
std::vector<std::string> presets_in(const std::string& text) {
  std::vector<std::string> found;
  for (const std::string& word : code_spans(text))
    for (auto& p : shipped_presets())
      if (p.name == word) found.push_back(word);
  return found;
}

}  // namespace

std::vector<HelpBlock> parse_help(const std::string& text) {
  std::vector<HelpBlock> page;
  std::istringstream in(text);
  bool open = false;  // a paragraph or bullet the next plain line continues
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) {
      open = false;
    } else if (line[0] == '|') {  // a table row, `| a | b |`; the `|---|` line under the header is skipped
      if (line.find_first_not_of("|-: ") == std::string::npos) continue;
      std::vector<std::string> cells;
      for (size_t a = 1, b; (b = line.find('|', a)) != std::string::npos; a = b + 1) {
        std::string c = line.substr(a, b - a);
        c.erase(0, c.find_first_not_of(' '));
        c.erase(c.find_last_not_of(' ') + 1);
        cells.push_back(c);
      }
      if (page.empty() || page.back().kind != HelpBlock::Kind::Table) page.push_back({HelpBlock::Kind::Table, "", {}});
      for (auto& c : cells) page.back().text += (page.back().text.empty() ? "" : " ") + c;
      page.back().rows.push_back(std::move(cells));
      open = false;
    } else if (line.rfind("## ", 0) == 0) {
      page.push_back({HelpBlock::Kind::Section, line.substr(3), {}}), open = false;
    } else if (line.rfind("# ", 0) == 0) {
      page.push_back({HelpBlock::Kind::Title, line.substr(2), {}}), open = false;
    } else if (line.rfind("- ", 0) == 0) {
      page.push_back({HelpBlock::Kind::Bullet, line.substr(2), {}}), open = true;
    } else if (open) {
      line.erase(0, line.find_first_not_of(' '));
      page.back().text += " " + line;
    } else {
      page.push_back({HelpBlock::Kind::Paragraph, line, {}}), open = true;
    }
  }
  // **bold** is GitHub's emphasis for the panel's labels; the window shows the words plainly.
  auto plain = [](std::string& t) {
    for (size_t at; (at = t.find("**")) != std::string::npos;) t.erase(at, 2);
  };
  for (auto& b : page) {
    plain(b.text);
    for (auto& row : b.rows)
      for (auto& cell : row) plain(cell);
    b.presets = presets_in(b.text);
  }
  return page;
}

void rich_text(const std::string& text) {
  const ImVec4 code_colour{1.0f, 0.82f, 0.55f, 1};
  const ImU32 shade = IM_COL32(255, 255, 255, 22);
  const float space = ImGui::CalcTextSize(" ").x,
              right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const float pad = 2;
  bool first = true, code = false;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '`') {  // into or out of a code span
      code = !code, ++i;
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = text.find_first_of(" `", i);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(i, end - i);
    // a word straight after a closing backtick (`x`'s, `y`,) stays glued to it
    bool glued = i > 0 && text[i - 1] == '`';
    i = end;
    ImVec2 size = ImGui::CalcTextSize(word.c_str());
    float w = size.x + (code ? 2 * pad : 0);
    if (!first) {
      float gap = glued ? 0 : space;
      if (ImGui::GetItemRectMax().x + gap + w <= right) ImGui::SameLine(0, gap);
    }
    first = false;
    if (code) {
      ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled({at.x, at.y}, {at.x + w, at.y + size.y}, shade, 2);
      ImGui::SetCursorScreenPos({at.x + pad, at.y});
      ImGui::TextColored(code_colour, "%s", word.c_str());
    } else {
      ImGui::TextUnformatted(word.c_str());
    }
  }
  if (first) ImGui::NewLine();
}

namespace {

// A bullet: its mark, then its text wrapped at an indent.
void bullet_text(const std::string& text) {
  float indent = ImGui::GetFontSize() * 1.1f;
  ImVec2 at = ImGui::GetCursorScreenPos();
  float r = ImGui::GetFontSize() * 0.16f;
  ImGui::GetWindowDrawList()->AddCircleFilled({at.x + indent * 0.45f, at.y + ImGui::GetFontSize() * 0.55f}, r,
                                              ImGui::GetColorU32(ImGuiCol_Text));
  ImGui::Indent(indent);
  rich_text(text);
  ImGui::Unindent(indent);
}

}  // namespace

HelpAction draw_help(const std::vector<HelpBlock>& page, HelpView* view) {
  HelpAction action;
  int id = 0, step = -1;
  bool in_try = false;
  const ImVec4 heading{0.55f, 0.8f, 1.0f, 1};
  for (size_t i = 0; i < page.size(); ++i) {
    const HelpBlock& b = page[i];
    if (view && view->scroll_to == int(i)) {
      ImGui::SetScrollHereY(0.0f);
      view->scroll_to = -1;
    }
    switch (b.kind) {
      case HelpBlock::Kind::Title:
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1.0f, 0.85f, 0.45f, 1}, "%s", b.text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::Separator();
        in_try = false;
        break;
      case HelpBlock::Kind::Section:
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        in_try = b.text == "Try" && view && view->lesson && !view->lesson->empty();
        if (in_try)
          ImGui::TextColored(heading, "Try: the lesson, %zu steps (Run sets the lab up and starts at step 0)",
                             view->lesson->size());
        else
          ImGui::TextColored(heading, "%s", b.text.c_str());
        ImGui::PopTextWrapPos();
        break;
      case HelpBlock::Kind::Bullet:
        if (in_try && size_t(step + 1) < view->lesson->size()) {
          ++step;
          ImGui::PushID(id++);
          const LessonStep& ls = (*view->lesson)[size_t(step)];
          bool last = view->last_run == step;
          if (last) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.2f, 0.55f, 0.3f, 1));
          std::string label = "Run step " + std::to_string(step + 1);
          if (ImGui::SmallButton(label.c_str())) action.run = step;
          if (last) ImGui::PopStyleColor();
          if (ImGui::IsItemHovered()) {
            std::string setup = ls.preset.empty() ? "the step before's setup" : ls.preset;
            for (auto& set : ls.sets) setup += ", " + set;
            ImGui::SetTooltip("%s, from step 0", setup.c_str());
          }
          ImGui::PopID();
          bullet_text(b.text);
          continue;  // the step's button is its preset's Load
        }
        bullet_text(b.text);
        break;
      case HelpBlock::Kind::Paragraph:
        rich_text(b.text);
        break;
      case HelpBlock::Kind::Table: {
        int columns = int(b.rows.empty() ? 1 : b.rows[0].size());
        ImGui::PushID(id++);
        if (ImGui::BeginTable("table", columns, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
          for (size_t r = 0; r < b.rows.size(); ++r) {
            ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
            for (int c = 0; c < columns; ++c) {
              ImGui::TableNextColumn();
              if (size_t(c) < b.rows[r].size()) rich_text(b.rows[r][c]);
            }
          }
          ImGui::EndTable();
        }
        ImGui::PopID();
        break;
      }
    }
    for (auto& p : b.presets) {
      ImGui::PushID(id++);
      ImGui::Indent();
      if (ImGui::SmallButton(("Load " + p).c_str())) action.load = p;
      ImGui::Unindent();
      ImGui::PopID();
    }
  }
  return action;
}
