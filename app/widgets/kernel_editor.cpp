#include "app/widgets/kernel_editor.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace {

struct Callback {
  std::vector<char>* buffer;
  int* caret;
};

// ImGui asks for a larger buffer as the text grows, and says where the caret is.
int on_edit(ImGuiInputTextCallbackData* d) {
  auto* c = static_cast<Callback*>(d->UserData);
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    c->buffer->resize(size_t(d->BufSize));
    d->Buf = c->buffer->data();
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
    *c->caret = d->CursorPos;
  }
  return 0;
}

// GLSL's words by kind: keywords, types, the built-in functions and variables a kernel uses.
const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "if",     "else",    "for",     "while",   "do",       "return",   "break",    "continue",   "switch",
      "case",   "default", "discard", "const",   "in",       "out",      "inout",    "uniform",    "buffer",
      "shared", "layout",  "struct",  "precise", "coherent", "volatile", "restrict", "readonly",   "writeonly",
      "highp",  "mediump", "lowp",    "true",    "false",    "#version", "#define",  "#extension", "#include",
      "#if",    "#ifdef",  "#ifndef", "#endif",  "#else",    "#pragma"};
  return k;
}
const std::set<std::string>& types() {
  static const std::set<std::string> t = {
      "void",    "bool",     "int",      "uint",      "float",   "double",   "vec2",      "vec3",    "vec4",
      "ivec2",   "ivec3",    "ivec4",    "uvec2",     "uvec3",   "uvec4",    "bvec2",     "bvec3",   "bvec4",
      "dvec2",   "dvec3",    "dvec4",    "mat2",      "mat3",    "mat4",     "dmat2",     "dmat3",   "dmat4",
      "image2D", "uimage2D", "iimage2D", "sampler2D", "int64_t", "uint64_t", "float16_t", "f16vec2", "f16vec4"};
  return t;
}
bool builtin(const std::string& w) {
  return w.rfind("gl_", 0) == 0 || w.rfind("atomic", 0) == 0 || w.rfind("image", 0) == 0 ||
         w.rfind("subgroup", 0) == 0 || w == "barrier" || w == "memoryBarrier" || w == "memoryBarrierShared" ||
         w == "groupMemoryBarrier" || w == "fma" || w == "sqrt" || w == "inversesqrt" || w == "abs" || w == "min" ||
         w == "max" || w == "clamp" || w == "mix" || w == "dot" || w == "floor" || w == "fract" || w == "exp" ||
         w == "log" || w == "pow" || w == "sin" || w == "cos" || w == "length" || w == "normalize" ||
         w == "texelFetch" || w == "floatBitsToUint" || w == "uintBitsToFloat";
}

// One line drawn in pieces of colour from (x, y); `comment`: a /* */ comment open at its start
// (updated at its end).
void draw_line(ImDrawList* draw, float x, float y, const char* begin, const char* end, bool& comment) {
  const ImU32 plain = IM_COL32(225, 225, 230, 255), kw = IM_COL32(240, 140, 190, 255),
              ty = IM_COL32(110, 190, 250, 255), fn = IM_COL32(240, 210, 120, 255), num = IM_COL32(170, 230, 150, 255),
              grey = IM_COL32(125, 135, 145, 255);
  const char* p = begin;
  auto piece = [&](const char* a, const char* b, ImU32 colour) {
    draw->AddText({x, y}, colour, a, b);
    x += ImGui::CalcTextSize(a, b).x;
  };
  while (p < end) {
    if (comment) {
      const char* close = std::search(p, end, "*/", "*/" + 2);
      const char* stop = close == end ? end : close + 2;
      piece(p, stop, grey);
      comment = close == end;
      p = stop;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
      piece(p, end, grey);
      p = end;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
      comment = true;
      piece(p, p + 2, grey);
      p += 2;
    } else if (std::isalpha(uint8_t(*p)) || *p == '_' || *p == '#') {
      const char* q = p + 1;
      while (q < end && (std::isalnum(uint8_t(*q)) || *q == '_')) ++q;
      std::string w(p, q);
      piece(p, q, keywords().count(w) ? kw : types().count(w) ? ty : builtin(w) ? fn : plain);
      p = q;
    } else if (std::isdigit(uint8_t(*p)) || (*p == '.' && p + 1 < end && std::isdigit(uint8_t(p[1])))) {
      const char* q = p + 1;
      while (q < end && (std::isalnum(uint8_t(*q)) || *q == '.')) ++q;
      piece(p, q, num);
      p = q;
    } else {
      const char* q = p + 1;
      while (q < end && !std::isalnum(uint8_t(*q)) && *q != '_' && *q != '#' && *q != '/') ++q;
      piece(p, q, plain);
      p = q;
    }
  }
}

}  // namespace

void KernelEditor::set_text(const std::string& text) {
  buffer_.assign(text.begin(), text.end());
  buffer_.push_back('\0');
  saved_ = text;
  caret_ = 0, last_caret_ = -1;
}

bool KernelEditor::draw(const std::vector<exercise::LineError>& errors, float height, bool focus) {
  std::map<int, std::string> bad;  // line -> its messages
  for (auto& e : errors)
    if (e.line > 0) bad[e.line] += (bad[e.line].empty() ? "" : "; ") + e.text;
  // The lines, as offsets, and the widest.
  const char* text = buffer_.data();
  const size_t n = std::strlen(text);
  std::vector<size_t> starts = {0};
  for (size_t i = 0; i < n; ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  const int lines = int(starts.size());
  auto line_end = [&](int k) { return k + 1 < lines ? starts[size_t(k + 1)] - 1 : n; };  // 0-based k
  float widest = 0;
  for (int k = 0; k < lines; ++k)
    widest = std::max(widest, ImGui::CalcTextSize(text + starts[size_t(k)], text + line_end(k)).x);

  const ImGuiStyle& style = ImGui::GetStyle();
  const float lh = ImGui::GetTextLineHeight(), gutter = ImGui::CalcTextSize("0000  ").x;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.07f, 0.07f, 0.09f, 1));
  ImGui::BeginChild("kernel editor", {0, height}, true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PopStyleColor();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float view_w = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
  const float view_h = ImGui::GetWindowContentRegionMax().y - ImGui::GetWindowContentRegionMin().y;
  // ImGui's own field, as large as the text (it never scrolls itself: this child does), its
  // letters and caret transparent; the editor draws them.
  ImGui::SetCursorScreenPos({origin.x + gutter, origin.y});
  float w = std::max(view_w - gutter, widest + ImGui::GetFontSize() * 4);
  float h = std::max(view_h, float(lines + 1) * lh + 2 * style.FramePadding.y);
  Callback cb{&buffer_, &caret_};
  if (focus) ImGui::SetKeyboardFocusHere(), settle_ = 3;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
  ImGui::InputTextMultiline("##kernel", buffer_.data(), buffer_.size(), {w, h},
                            ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize |
                                ImGuiInputTextFlags_CallbackAlways | ImGuiInputTextFlags_NoHorizontalScroll,
                            on_edit, &cb);
  ImGui::PopStyleColor(2);
  const bool active = ImGui::IsItemActive();
  // Focusing the field makes ImGui scroll this child to show as much of it as it can (its right
  // edge): for the frames the focus takes to land, the view stays at the left margin.
  if (settle_ > 0) ImGui::SetScrollX(0), --settle_;
  bool save = active && ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false);
  const float right = ImGui::GetItemRectMax().x;

  // The text as it is now (the field may have changed it this frame).
  text = buffer_.data();
  const size_t now = std::strlen(text);
  if (now != n) {
    starts.assign(1, 0);
    for (size_t i = 0; i < now; ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
  }
  const int count = int(starts.size());
  auto end_of = [&](int k) { return k + 1 < count ? starts[size_t(k + 1)] - 1 : now; };
  size_t caret = std::min<size_t>(size_t(std::max(caret_, 0)), now);
  int caret_line = int(std::upper_bound(starts.begin(), starts.end(), caret) - starts.begin()) - 1;
  float caret_x = ImGui::CalcTextSize(text + starts[size_t(caret_line)], text + caret).x;

  // The view follows the caret when it moves (or the text changes under it).
  const float x0 = origin.x + gutter + style.FramePadding.x, y0 = origin.y + style.FramePadding.y;
  if (int(caret) != last_caret_ || now != n) {
    float cy = float(caret_line) * lh + style.FramePadding.y, sy = ImGui::GetScrollY();
    if (cy < sy) ImGui::SetScrollY(cy);
    if (cy + lh > sy + view_h) ImGui::SetScrollY(cy + lh - view_h + style.FramePadding.y);
    float cx = gutter + style.FramePadding.x + caret_x, sx = ImGui::GetScrollX();
    if (cx - gutter < sx) ImGui::SetScrollX(std::max(0.0f, cx - gutter - ImGui::GetFontSize() * 2));
    bool laid_out = view_w > gutter + ImGui::GetFontSize() * 4;  // not the first frame's empty child
    if (laid_out && cx > sx + view_w - ImGui::GetFontSize()) ImGui::SetScrollX(cx - view_w + ImGui::GetFontSize() * 3);
    last_caret_ = int(caret);
  }

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight();
  bool comment = false;
  view_ = {caret_line + 1, int(caret - starts[size_t(caret_line)]) + 1, 0, 0, count};
  std::vector<std::pair<int, float>> shown;  // the lines in sight and their y, for the gutter
  for (int k = 0; k < count; ++k) {
    const char *a = text + starts[size_t(k)], *b = text + end_of(k);
    float y = y0 + float(k) * lh;
    if (y + lh < top || y > bottom) {  // out of sight: only the comments it opens or closes matter
      for (const char* p = a; p + 1 < b; ++p)
        if (p[0] == '/' && p[1] == '*')
          comment = true, ++p;
        else if (p[0] == '*' && p[1] == '/')
          comment = false, ++p;
        else if (!comment && p[0] == '/' && p[1] == '/')
          break;
      continue;
    }
    if (view_.first_line == 0) view_.first_line = k + 1;
    if (y + lh <= bottom) view_.last_line = k + 1;
    auto it = bad.find(k + 1);
    if (it != bad.end()) draw->AddRectFilled({origin.x + gutter, y}, {right, y + lh}, IM_COL32(255, 60, 60, 45));
    shown.push_back({k, y});
    draw_line(draw, x0, y, a, b, comment);
    if (it == bad.end()) continue;
    // the message at the line's end, where the eye is
    float end_x = x0 + ImGui::CalcTextSize(a, b).x + ImGui::GetFontSize() * 2;
    draw->AddText({end_x, y}, IM_COL32(255, 120, 110, 255), ("<- " + it->second).c_str());
    if (mouse.x >= origin.x && mouse.x < right && mouse.y >= y && mouse.y < y + lh && ImGui::IsWindowHovered())
      ImGui::SetTooltip("line %d: %s", k + 1, it->second.c_str());
  }
  // The gutter stays at the left edge when the text scrolls sideways, over the text under it.
  const float gx = origin.x + ImGui::GetScrollX();
  draw->AddRectFilled({gx, top}, {gx + gutter, bottom}, IM_COL32(18, 18, 23, 255));
  for (auto [k, y] : shown) {
    char number[16];
    std::snprintf(number, sizeof number, "%4d", k + 1);
    draw->AddText({gx, y}, bad.count(k + 1) ? IM_COL32(255, 90, 90, 255) : IM_COL32(110, 110, 120, 255), number);
  }
  if (active && std::fmod(ImGui::GetTime(), 1.0) < 0.6) {  // the caret, blinking
    float cx = x0 + caret_x, cy = y0 + float(caret_line) * lh;
    draw->AddLine({cx, cy}, {cx, cy + lh}, IM_COL32(255, 255, 255, 255), 1.5f);
  }
  ImGui::EndChild();
  return save;
}
