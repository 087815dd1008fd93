#include "compute/mesh/io/kernel_words.h"

#include <algorithm>
#include <cctype>

namespace mesh::words {

namespace {
bool alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}
}  // namespace

bool is_identifier_char(char c) { return alpha(c) || std::isdigit(static_cast<unsigned char>(c)); }

std::vector<Word> identifiers(std::string_view code) {
  std::vector<Word> out;
  for (size_t i = 0; i < code.size();) {
    if (alpha(code[i])) {
      size_t b = i;
      while (i < code.size() && is_identifier_char(code[i])) ++i;
      out.push_back({code.substr(b, i - b), b});
    } else if (std::isdigit(static_cast<unsigned char>(code[i]))) {
      while (i < code.size() && (is_identifier_char(code[i]) || code[i] == '.')) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

bool names(std::string_view code, std::string_view word) {
  for (size_t at = code.find(word); at != std::string_view::npos; at = code.find(word, at + 1)) {
    bool start = at == 0 || !is_identifier_char(code[at - 1]);
    bool end = at + word.size() == code.size() || !is_identifier_char(code[at + word.size()]);
    if (start && end) {
      // not the tail of a number such as 1e5
      size_t b = at;
      while (b > 0 && (is_identifier_char(code[b - 1]) || code[b - 1] == '.')) --b;
      if (b == at) return true;
    }
  }
  return false;
}

bool subscripts_to_calls(std::string& code, std::string_view name, std::string_view call, int subscripts) {
  // Scanned with every comment's characters blanked (its newlines kept), so the offsets are
  // the code's and a name or a bracket in a comment counts for nothing.
  std::string scan = code;
  for (size_t i = 0; i < scan.size();) {
    size_t end = scan.compare(i, 2, "//") == 0   ? scan.find('\n', i)
                 : scan.compare(i, 2, "/*") == 0 ? scan.find("*/", i + 2)
                                                 : i;
    if (end == i) {
      ++i;
      continue;
    }
    end = end == std::string::npos ? scan.size() : end + (scan[i + 1] == '*' ? 2 : 0);
    for (; i < end; ++i)
      if (scan[i] != '\n') scan[i] = ' ';
  }
  std::string out;
  size_t done = 0;
  for (const Word& w : identifiers(scan)) {
    if (w.text != name) continue;
    if (w.at < done) return false;  // inside another one's index
    out.append(code, done, w.at - done).append(call).append("(");
    size_t close = w.at + name.size() - 1;
    for (int s = 0; s < subscripts; ++s) {  // name[a][b]: call(a, b)
      size_t open = skip_blanks(scan, close + 1), depth = 0;
      if (open >= scan.size() || scan[open] != '[') return false;
      for (close = open; close < scan.size(); ++close) {
        if (scan[close] == '[') ++depth;
        if (scan[close] == ']' && --depth == 0) break;
      }
      if (close >= scan.size()) return false;
      out.append(s ? ", " : "").append(code, open + 1, close - open - 1);
    }
    out.append(")");
    done = close + 1;
  }
  code = out + code.substr(done);
  return true;
}

std::string strip_comments(std::string_view code) {
  std::string out;
  out.reserve(code.size());
  for (size_t i = 0; i < code.size();) {
    if (code.compare(i, 2, "//") == 0) {
      while (i < code.size() && code[i] != '\n') ++i;
      out += ' ';
    } else if (code.compare(i, 2, "/*") == 0) {
      size_t e = code.find("*/", i + 2);
      i = e == std::string_view::npos ? code.size() : e + 2;
      out += ' ';
    } else {
      out += code[i++];
    }
  }
  return out;
}

bool is_capitalised_name(std::string_view s) {
  if (s.empty() || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string_view short_kind_at(std::string_view s) {
  static const std::string_view kShort[] = {"Ver", "Edg", "Tri", "Qua", "Tet", "Pyr", "Pri", "Hex"};
  for (auto k : kShort)
    if (s.substr(0, 3) == k) return k;
  return {};
}

namespace {
// After "//" at `i`: blanks, `key`, blanks; the position after them, or npos.
size_t after_key(std::string_view s, size_t i, std::string_view key) {
  i = skip_blanks(s, i + 2);
  if (s.compare(i, key.size(), key) != 0) return std::string_view::npos;
  return skip_blanks(s, i + key.size());
}
// A whole short kind name at `i` (not followed by an identifier character).
std::string_view kind_word(std::string_view s, size_t i) {
  auto k = short_kind_at(s.substr(i));
  if (k.empty() || (i + 3 < s.size() && is_identifier_char(s[i + 3]))) return {};
  return k;
}
}  // namespace

std::string_view loop_line(std::string_view line) {
  size_t i = skip_blanks(line, 0);
  if (line.compare(i, 2, "//") != 0) return {};
  i = after_key(line, i, "loop:");
  return i == std::string_view::npos ? std::string_view{} : kind_word(line, i);
}

std::string_view write_line(std::string_view line) {
  size_t i = skip_blanks(line, 0);
  if (line.compare(i, 2, "//") != 0) return {};
  i = after_key(line, i, "write:");
  if (i == std::string_view::npos) return {};
  size_t end = i;
  while (end < line.size() && is_identifier_char(line[end])) ++end;
  return line.substr(i, end - i);
}

std::vector<FieldDecl> field_declarations(std::string_view text) {
  std::vector<FieldDecl> out;
  for (size_t at = text.find("//"); at != std::string_view::npos; at = text.find("//", at + 2)) {
    size_t i = after_key(text, at, "field:");
    if (i == std::string_view::npos) continue;
    auto word = [&] {
      size_t b = i;
      while (i < text.size() && is_identifier_char(text[i])) ++i;
      return std::string(text.substr(b, i - b));
    };
    FieldDecl d;
    d.name = word();
    if (d.name.empty() || i >= text.size() || !blank(text[i])) continue;
    i = skip_blanks(text, i);
    d.type = word();
    if (i < text.size() && text[i] == '[') {  // an array an entity: vec4[2]
      size_t close = text.find(']', i);
      if (close == std::string_view::npos || close - i > 4) continue;
      d.type += std::string(text.substr(i, close + 1 - i));
      i = close + 1;
    }
    if (d.type.empty() || i >= text.size() || !blank(text[i])) continue;
    i = skip_blanks(text, i);
    auto k = kind_word(text, i);
    if (k.empty()) continue;
    d.kind = std::string(k);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<ParamDecl> param_declarations(std::string_view text) {
  std::vector<ParamDecl> out;
  for (size_t at = text.find("//"); at != std::string_view::npos; at = text.find("//", at + 2)) {
    size_t i = after_key(text, at, "param:");
    if (i == std::string_view::npos) continue;
    size_t end = text.find('\n', i);
    std::string_view line = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    ParamDecl d;
    d.line = size_t(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
    size_t j = 0;
    auto word = [&] {
      j = skip_blanks(line, j);
      size_t b = j;
      while (j < line.size() && is_identifier_char(line[j])) ++j;
      return std::string(line.substr(b, j - b));
    };
    d.name = word();
    d.type = word();
    j = skip_blanks(line, j);
    if (j < line.size() && line[j] == '=')
      d.values = std::string(line.substr(j + 1));
    else if (j < line.size() && line[j] != '\r')  // anything else after the type: not a type
      d.type += std::string(line.substr(j));
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace mesh::words
