#include "app/widgets/table.h"
#include "compute/io/output.h"

#include "app/widgets/plot.h"

#include <imgui.h>

#include <algorithm>
#include <fstream>

namespace {
std::optional<TableData> table_request;
std::string table_written_for, table_written_file;

std::string csv_cell(const std::string& c) {
  if (c.find_first_of(",\"\n\r") == std::string::npos) return c;
  std::string q = "\"";
  for (char ch : c) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

ImVec4 colour_of(uint32_t v) {
  return {float(v >> 16 & 255) / 255, float(v >> 8 & 255) / 255, float(v & 255) / 255, 1};
}
}  // namespace

std::string table_csv(const TableData& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) out += (c ? "," : "") + csv_cell(cells[c]);
    out += "\n";
  };
  line(t.header);
  for (auto& r : t.rows) line(r);
  return out;
}

void table_written(const std::string& name, const std::filesystem::path& file) {
  table_written_for = name, table_written_file = file.string() + " (and .csv)";
}

std::optional<TableData> take_table_picture_request() {
  auto r = std::move(table_request);
  table_request.reset();
  return r;
}

std::filesystem::path table(const TableData& t) {
  ImGui::PushID(t.name.c_str());
  const int columns = int(t.header.size());
  // A column of sentences gets what is left, at least its longest word; the others their widest cell.
  float longest_word = 0;
  if (t.sentences >= 0)
    for (auto& r : t.rows)
      if (size_t(t.sentences) < r.size()) {
        const std::string& s = r[size_t(t.sentences)];
        for (size_t a = 0, b; a < s.size(); a = b + 1) {
          b = std::min(s.find(' ', a), s.size());
          longest_word = std::max(longest_word, ImGui::CalcTextSize(s.data() + a, s.data() + b).x);
        }
      }
  if (ImGui::BeginTable("table", columns,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                            ImGuiTableFlags_ScrollX | ImGuiTableFlags_NoHostExtendY)) {
    for (int c = 0; c < columns; ++c)
      if (c == t.sentences)
        ImGui::TableSetupColumn(t.header[size_t(c)].c_str(), ImGuiTableColumnFlags_WidthFixed,
                                std::max(longest_word, ImGui::GetFontSize() * 14));
      else
        ImGui::TableSetupColumn(t.header[size_t(c)].c_str());
    ImGui::TableHeadersRow();
    for (size_t r = 0; r < t.rows.size(); ++r) {
      ImGui::TableNextRow();
      for (int c = 0; c < columns; ++c) {
        ImGui::TableNextColumn();
        if (size_t(c) >= t.rows[r].size()) continue;
        const std::string& cell = t.rows[r][size_t(c)];
        uint32_t colour = r < t.colours.size() && size_t(c) < t.colours[r].size() ? t.colours[r][size_t(c)] : 0;
        if (colour) ImGui::PushStyleColor(ImGuiCol_Text, colour_of(colour));
        if (c == t.sentences)
          ImGui::TextWrapped("%s", cell.c_str());
        else
          ImGui::TextUnformatted(cell.c_str());
        if (colour) ImGui::PopStyleColor();
      }
    }
    ImGui::EndTable();
  }
  std::filesystem::path written;
  if (ImGui::SmallButton("CSV")) {
    written = timestamped_plot_path(t.name, ".csv");
    std::filesystem::create_directories(written.parent_path());
    io::write_file(written, table_csv(t));
    written = std::filesystem::absolute(written);
    table_written_for = t.name, table_written_file = written.string();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("write this table to plots/%s-<time>.csv", t.name.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("PNG")) table_request = t;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("this table as a picture of its own, for slides: plots/%s-<time>.png and its .csv",
                      t.name.c_str());
  if (table_written_for == t.name) ImGui::TextDisabled("wrote %s", table_written_file.c_str());
  ImGui::PopID();
  return written;
}
