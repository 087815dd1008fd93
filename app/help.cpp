#include "app/help.h"

#include "app/assets.h"
#include "app/presets.h"

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

namespace {

// The shipped presets a text names in backticks.
std::vector<std::string> presets_in(const std::string& text) {
  std::vector<std::string> found;
  for (size_t a = text.find('`'); a != std::string::npos; a = text.find('`', a + 1)) {
    size_t b = text.find('`', a + 1);
    if (b == std::string::npos) break;
    std::string word = text.substr(a + 1, b - a - 1);
    for (auto& p : shipped_presets())
      if (p.name == word) found.push_back(word);
    a = b;
  }
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

std::string draw_help(const std::vector<HelpBlock>& page) {
  std::string load;
  int id = 0;
  for (auto& b : page) {
    switch (b.kind) {
      case HelpBlock::Kind::Title:
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1.0f, 0.85f, 0.45f, 1}, "%s", b.text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::Separator();
        break;
      case HelpBlock::Kind::Section:
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "%s", b.text.c_str());
        ImGui::PopTextWrapPos();
        break;
      case HelpBlock::Kind::Bullet:
        ImGui::Bullet();
        ImGui::TextWrapped("%s", b.text.c_str());
        break;
      case HelpBlock::Kind::Paragraph:
        ImGui::TextWrapped("%s", b.text.c_str());
        break;
      case HelpBlock::Kind::Table: {
        int columns = int(b.rows.empty() ? 1 : b.rows[0].size());
        ImGui::PushID(id++);
        if (ImGui::BeginTable("table", columns, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
          for (size_t r = 0; r < b.rows.size(); ++r) {
            ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
            for (int c = 0; c < columns; ++c) {
              ImGui::TableNextColumn();
              if (size_t(c) < b.rows[r].size()) ImGui::TextWrapped("%s", b.rows[r][c].c_str());
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
      if (ImGui::SmallButton(("Load " + p).c_str())) load = p;
      ImGui::Unindent();
      ImGui::PopID();
    }
  }
  return load;
}
