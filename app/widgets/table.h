// Tables in the panel like plots: every column as wide as its widest cell (a column of
// sentences wraps between words, never inside one), scrolling sideways where the panel is
// narrower, and CSV and PNG buttons that write what the table shows (plots/<name>-<time>.csv,
// and a picture of its own, render/table_picture.h). A lab lists its tables (Lab::tables) for
// headless --plot NAME=FILE.png too.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

struct TableData {
  std::string name;   // the files' name and the widget's id: "<lab>-<table>"
  std::string title;  // the picture's title
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<uint32_t>> colours;  // 0xRRGGBB a cell where given (0: the text's colour)
  int sentences = -1;                          // a column of sentences (wraps between words), or -1
};

// RFC 4180: a header line, then a line a row; a cell with a comma, quote or line end quoted.
std::string table_csv(const TableData& t);
// Draws the table (ImGui) and its buttons; returns the CSV written when its button was pressed.
std::filesystem::path table(const TableData& t);
// The table whose PNG button was pressed since the last call, if any (the window writes it
// between frames: write_table_files).
std::optional<TableData> take_table_picture_request();
// Said under the table named `name` from now on: the picture written for it.
void table_written(const std::string& name, const std::filesystem::path& file);
