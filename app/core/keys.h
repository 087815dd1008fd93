// The window's keys: their names (--keys FRAME:KEY) and what each does (the Help tab and
// --help list them). Digit keys switch labs, one a registered lab.
#pragma once
#include <string>
#include <vector>

// "space", "s", "f1", "1", ... -> the GLFW key; std::invalid_argument naming the keys if unknown.
int key_code(const std::string& name);

struct KeyHelp {
  std::string keys;
  std::string what;
};
const std::vector<KeyHelp>& window_keys();
