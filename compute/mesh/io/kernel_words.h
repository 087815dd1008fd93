// Reading the mesh lab's kernel text by hand-written scanning, not std::regex: libstdc++'s
// regex recurses once a character and overflows the stack on a long line. Identifiers,
// comments, and the "// loop: Tri" and "// field: Name type Kind" lines (kernel_text.h).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mesh::words {

struct Word {
  std::string_view text;
  size_t at = 0;  // offset in the scanned text
};
// Identifiers ([A-Za-z_][A-Za-z0-9_]*) in order; numbers such as 1e5 or 2u are skipped whole.
std::vector<Word> identifiers(std::string_view code);
bool names(std::string_view code, std::string_view word);  // `word` occurs as a whole identifier
std::string strip_comments(std::string_view code);         // each // or /* */ comment becomes a space
// Every `name[index]` made `call(index)` (brackets nested in the index kept; comments left as
// they are); false, and `code` unchanged, where `name` also occurs otherwise (passed whole,
// .length(), inside its own index). With `subscripts` 2, every `name[a][b]` made `call(a, b)`,
// and false where one has fewer.
bool subscripts_to_calls(std::string& code, std::string_view name, std::string_view call, int subscripts = 1);

bool is_identifier_char(char c);
bool is_capitalised_name(std::string_view s);  // [A-Z][A-Za-z0-9]*
// An entity's three-letter short name at the start of `s` (Ver, Edg, Tri, ...), or empty.
std::string_view short_kind_at(std::string_view s);

// "// loop: Tri ..." (leading blanks allowed): the kind's short name, or empty.
std::string_view loop_line(std::string_view line);
// "// write: colouring" (leading blanks allowed): the word after "write:", or empty.
std::string_view write_line(std::string_view line);
struct FieldDecl {
  std::string name, type, kind;  // "// field: Name type Kind" (type may end in [N])
};
std::vector<FieldDecl> field_declarations(std::string_view text);
struct ParamDecl {
  std::string name, type, values;  // "// param: Name type [= v, v ...]" (values: "" or the text after =)
  size_t line = 0;                 // 1-based, for messages
};
std::vector<ParamDecl> param_declarations(std::string_view text);

}  // namespace mesh::words
