// The user's kernel compiled inside the loop budget (user_kernel.h).
#include "compute/exercise/user_kernel.h"

#include "compute/gpu/resources.h"
#include "compute/gpu/shader_compile.h"
#include "compute/gpu/spirv_screen.h"
#include "compute/io/user_text.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

namespace exercise {

namespace {

constexpr uint32_t kTag = 1;            // the status's name for the user's kernel
constexpr int kGlueLine = 100000;       // lines of the checker's code around the user's are numbered from here
const char* kUserMain = "vklab_main_";  // the user's main(), renamed (the budget refuses such names in user code)

bool directive(const std::string& line, const char* word) {
  size_t i = line.find_first_not_of(" \t");
  return i != std::string::npos && line.compare(i, std::strlen(word), word) == 0;
}

// "name:12: error: 'x' : undeclared identifier" -> line 12 and the rest; the checker's own
// lines (kGlueLine on) are said as the kernel's whole. (Read by hand: std::regex recurses a
// character at a time and a long line would overflow the stack.)
std::vector<LineError> parse_messages(const std::string& messages, const std::string& name) {
  std::vector<LineError> out;
  std::istringstream in(messages);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.find(" error generated") != std::string::npos ||
        line.find(" errors generated") != std::string::npos)
      continue;
    size_t digits = name.size() + 1, end = digits;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    if (line.compare(0, name.size(), name) == 0 && line.size() > digits && line[name.size()] == ':' && end > digits &&
        end - digits < 9 && line.compare(end, 2, ": ") == 0) {
      int n = std::stoi(line.substr(digits, end - digits));
      out.push_back({n >= kGlueLine ? 0 : n, line.substr(end + 2)});
    } else {
      out.push_back({0, line});
    }
  }
  return out;
}

// "#version 460" or "#version 460 core", blanks around, a // comment after.
bool version_line(const std::string& line) {
  std::istringstream words(line.substr(0, line.find("//")));
  std::string directive, number, profile, more;
  words >> directive >> number >> profile >> more;
  return directive == "#version" && !number.empty() && number.size() < 5 &&
         std::all_of(number.begin(), number.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         (profile.empty() || profile == "core") && more.empty();
}

// Where the source names binding `n` ("binding = 15" with blanks anywhere), or npos.
size_t binding_at(const std::string& source, uint32_t n) {
  const std::string number = std::to_string(n);
  for (size_t at = source.find("binding"); at != std::string::npos; at = source.find("binding", at + 1)) {
    size_t i = at + 7;
    while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i]))) ++i;
    if (i >= source.size() || source[i] != '=') continue;
    ++i;
    while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i]))) ++i;
    if (source.compare(i, number.size(), number) == 0 &&
        (i + number.size() >= source.size() || !std::isalnum(static_cast<unsigned char>(source[i + number.size()]))))
      return at;
  }
  return std::string::npos;
}

std::string joined(const std::vector<LineError>& errors, const std::string& name) {
  std::string text;
  for (auto& e : errors) text += (e.line ? name + ":" + std::to_string(e.line) + ": " : name + ": ") + e.text + "\n";
  return text;
}

}  // namespace

std::string sandboxed_source(const std::string& source, uint32_t budget) {
  // The text as the compiler reads it (user_text.h). Its #version and #extension lines go
  // first, as GLSL wants them, each checked whole; they become blank lines in place, so the
  // user's lines keep their numbers. Any other directive the budget refuses.
  const std::string text = io::normalized_user_text(source);
  std::string head, body;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (directive(line, "#version")) {
      if (!version_line(line)) throw io::TextRefused(n, "a #version line is '#version 460' and nothing else");
      head += line + "\n";
      line.clear();
    } else if (directive(line, "#extension")) {
      io::check_extension_line(line, n);
      head += line + "\n";
      line.clear();
    }
    body += line + "\n";
  }
  if (!directive(head, "#version")) head = "#version 460\n" + head;
  gpu::BudgetedCode code = gpu::budget_loops(body, 1);
  return head + "#line " + std::to_string(kGlueLine) + "\n" +
         gpu::loop_budget_glsl(UserKernel::kStatusBinding, kTag, budget) + "#define main " + kUserMain + "\n#line 1\n" +
         code.text + "\n#undef main\n#line " + std::to_string(kGlueLine + 1000) + "\nvoid main() {\n  " + kUserMain +
         "();\n  vklab_finish();\n}\n";
}

std::unique_ptr<UserKernel> UserKernel::compile(gpu::Context& ctx, const std::string& source, const std::string& name,
                                                CompileOutcome& out) {
  out = {};
  std::unique_ptr<UserKernel> k(new UserKernel);
  k->source_ = source;
  k->budget_ = gpu::loop_budget_for(ctx.info.name);
  std::string text;
  try {
    if (size_t at = binding_at(source, kStatusBinding); at != std::string::npos)
      throw std::invalid_argument(
          "line " + std::to_string(std::count(source.begin(), source.begin() + long(at), '\n') + 1) + ": binding " +
          std::to_string(kStatusBinding) + " is the checker's own (the loop budget's status): use another");
    text = sandboxed_source(source, k->budget_);
  } catch (const std::invalid_argument& e) {  // "line N: ..." from the loop budget
    std::string what = e.what();
    int line = 0;
    if (what.rfind("line ", 0) == 0) {
      line = std::atoi(what.c_str() + 5);
      what = what.substr(what.find(": ") + 2);
    }
    out.errors = {{line, "error: " + what}};
    out.messages = joined(out.errors, name);
    return nullptr;
  }
  auto compiled = gpu::compile_glsl(text, gpu::ShaderStage::Compute, name);
  out.errors = parse_messages(compiled.messages, name);
  if (compiled.ok) {
    // What a pipeline cannot take (a set other than 0, an unbounded array of descriptors) is
    // said as the compiler's messages are.
    try {
      gpu::screen_spirv(compiled.spirv, ctx);
      k->interface_ = gpu::reflect_spirv(compiled.spirv, name);
      k->pipeline_ = gpu::make_compute(ctx, compiled.spirv, k->interface_.push_bytes, {}, name);
    } catch (const std::exception& e) {
      out.errors.push_back({0, std::string("error: ") + e.what()});
      compiled.ok = false;
    }
  }
  out.messages = joined(out.errors, name);
  out.ok = compiled.ok;
  if (!out.ok) return nullptr;
  k->status_ = gpu::Buffer(ctx, gpu::kLoopStatusBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  std::memset(k->status_.mapped(), 0, gpu::kLoopStatusBytes);
  return k;
}

void UserKernel::bind(VkCommandBuffer cmd, const std::vector<gpu::Bind>& binds, const void* push,
                      uint32_t push_bytes) const {
  std::vector<gpu::Bind> all = binds;
  all.resize(kStatusBinding + 1, gpu::storage_buffer(status_));  // bindings the kernel does not declare are skipped
  all[kStatusBinding] = gpu::storage_buffer(status_);
  pipeline_.bind(cmd, all, interface_.push_bytes ? push : nullptr, interface_.push_bytes ? push_bytes : 0);
}

gpu::LoopStatus UserKernel::take_status() {
  gpu::LoopStatus s;
  std::memcpy(&s, status_.mapped(), sizeof s);
  std::memset(status_.mapped(), 0, sizeof s);
  return s;
}

std::string UserKernel::trouble(const gpu::LoopStatus& s) const {
  if (s.budget_tag == 0) return "";
  return "stopped: the loop on line " + std::to_string(s.budget_line) + " ran " + std::to_string(budget_) +
         " iterations in one invocation (the loop budget on this device): does it ever end?";
}

}  // namespace exercise
