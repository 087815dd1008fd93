// The help pages (assets/<lab>/help.md) speak the panel's words: a parameter a page names by its
// command-line name (`c`, `c=18.75`, --set c=...) is also named there by the label the panel
// shows ("Wave speed"), so a teacher who reads the page finds the control in the window.
#include "app/core/help.h"
#include "app/core/lab.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace {

// Whether `page` (joined) names parameter `name` as the command line spells it: `name`,
// `name=...`, or in a command line, --set name=... and --sweep name=.... Only these forms
// count, so a name that is also a common word ("picture", "display", "path") is not taken for
// the parameter in plain prose: no name needs skipping.
bool names_parameter(const std::string& page, const std::string& name) {
  for (const std::string& form : {"`" + name + "`", "`" + name + "=", "--set " + name + "=", "--sweep " + name + "="})
    if (page.find(form) != std::string::npos) return true;
  return false;
}

// The text as the window shows it: a line break and the indent after it become one space
// (parse_help joins a bullet's lines so), so a label may wrap across lines in the file.
std::string joined(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// Whether `label` occurs in `text` as whole words: "Faces" is not found in "GmlExtractFaces".
bool has_words(const std::string& text, const std::string& label) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(label); at != std::string::npos; at = text.find(label, at + 1)) {
    bool starts = at == 0 || !word(text[at - 1]) || !word(label.front());
    size_t end = at + label.size();
    bool ends = end == text.size() || !word(text[end]) || !word(label.back());
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

// Every lab, every parameter its page names by its command-line name: the page also holds the
// parameter's panel label (Param::label, without the unit param_label() adds; a parameter
// without a label is shown by its name, which the page then holds already).
TEST(HelpLabels, EveryParameterAPageNamesCarriesItsPanelLabel) {
  size_t checked = 0;
  for (auto& lab : lab_names()) {
    auto page = lab_help_text(lab);
    ASSERT_FALSE(page.empty()) << lab;
    auto shown = joined(page);
    auto made = make_lab(lab);
    for (auto& p : made->params().all()) {
      if (p.label.empty() || !names_parameter(shown, p.name)) continue;
      ++checked;
      EXPECT_TRUE(has_words(shown, p.label))
          << "assets/" << lab << "/help.md names `" << p.name << "` but not its panel label \"" << p.label
          << "\" (under " << p.group << ")";
    }
  }
  EXPECT_GT(checked, 0u) << "no page names a parameter: the check would pass on anything";
}

// The checker's own rules, on made-up pages.
TEST(HelpLabels, FindsNamesAndWholeLabels) {
  EXPECT_TRUE(names_parameter("set `c` to 4", "c"));
  EXPECT_TRUE(names_parameter("`c=18.75`", "c"));
  EXPECT_TRUE(names_parameter("`vklab --lab wave --set c=4`", "c"));
  EXPECT_TRUE(names_parameter("`vklab bench --sweep size=256:8192:6`", "size"));
  EXPECT_FALSE(names_parameter("the picture shows c", "picture"));
  EXPECT_FALSE(names_parameter("`cd`", "c"));
  EXPECT_TRUE(has_words(joined("**Wave\n  speed** (`c`)"), "Wave speed"));
  EXPECT_FALSE(has_words("GmlExtractFaces", "Faces"));
  EXPECT_TRUE(has_words("**Rays (Z- / N-buffer)** = normal", "Rays (Z- / N-buffer)"));
}
