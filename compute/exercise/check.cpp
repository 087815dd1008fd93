// The user's kernel checked against the twin and the shipped kernel (check.h).
#include "compute/exercise/check.h"

#include "compute/gpu/resources.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <sstream>

namespace exercise {

namespace {

constexpr uint32_t kCanary = 0xdeadbeefu;  // the guard words' contents

std::string ms_text(double ms) { return ms > 0 ? num(std::round(ms * 1e4) / 1e4) + " ms" : "n/a"; }

// What in the kernel's interface does not fit the problem: a binding it has no array for, a
// binding of another kind, a push block of another size.
std::string interface_problem(const UserKernel& k, const Problem& p) {
  std::string names;
  for (size_t i = 0; i < p.arrays.size(); ++i) names += (i ? ", " : "") + std::to_string(i) + " " + p.arrays[i].name;
  for (auto& [b, d] : k.interface().bindings) {
    if (b == UserKernel::kStatusBinding) continue;
    if (b >= p.arrays.size())
      return "the kernel declares binding " + std::to_string(b) + ", but the exercise binds only " + names;
    if (d.type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
      return "binding " + std::to_string(b) + " (" + p.arrays[b].name + ") must be a storage buffer (std430 buffer)";
  }
  uint32_t push = k.interface().push_bytes;
  if (push && push != p.push.size())
    return "the kernel's push-constant block is " + std::to_string(push) + " bytes, the exercise's " +
           std::to_string(p.push.size()) + ": declare it as the start file does";
  return "";
}

bool integer(Elem e) { return e == Elem::U32 || e == Elem::I32; }

// One word against what it should be: within the tolerance? `err` its distance, `allowed` the bound.
bool within(Elem e, double got, double want, double scale, double ulps, double& err, double& allowed) {
  err = std::isnan(got) ? INFINITY : std::fabs(got - want);
  if (integer(e) || ulps == 0) {
    allowed = 0;
    return integer(e) ? got == want : !std::isnan(got) && float(got) == float(want);
  }
  allowed = ulps * ulp_of(scale);
  return err <= allowed;
}

float badness(double err, double allowed) {
  if (err == 0) return 0;
  if (allowed == 0) return 2;
  return float(std::min(err / allowed, 1e3));
}

ArrayCheck compare(const Exercise& e, const Operator& op, const Case& c, const Problem& p, size_t i,
                   const std::vector<uint32_t>& got, const Want& want, const std::vector<uint32_t>& shipped) {
  const Array& a = p.arrays[i];
  ArrayCheck r;
  r.name = a.name;
  r.words = a.words.size();
  r.width = a.width ? a.width : std::max(1u, uint32_t(std::ceil(std::sqrt(double(a.elements())))));
  r.picture.assign(a.elements(), 0.0f);
  for (size_t w = 0; w < a.words.size(); ++w) {
    double g = word_value(a.elem, got[w]), v = want.value[w];
    double scale = want.scale.empty() ? std::fabs(v) : want.scale[w];
    double err, allowed;
    bool ok = within(a.elem, g, v, scale, e.tolerance.ulps, err, allowed);
    r.max_abs = std::max(r.max_abs, err);
    if (v != 0) r.max_rel = std::max(r.max_rel, err / std::fabs(v));
    if (!integer(a.elem)) r.max_ulps = std::max(r.max_ulps, ulps_apart(float(g), float(v)));
    float& px = r.picture[w / a.components];
    px = std::max(px, badness(err, allowed));
    if (!ok && r.wrong++ == 0) {
      r.first_wrong = long(w / a.components);
      r.component = a.components > 1 ? int(w % a.components) : -1;
      r.got = g, r.want = v, r.allowed = allowed;
      r.inputs = op.inputs_at(c, p, i, w / a.components);
    }
    double s = word_value(a.elem, shipped[w]), serr, sallowed;
    if (!within(a.elem, s, v, scale, e.tolerance.ulps, serr, sallowed)) ++r.shipped_wrong;
    r.shipped_abs = std::max(r.shipped_abs, std::isnan(g) ? INFINITY : std::fabs(g - s));
    if (!integer(a.elem)) r.shipped_ulps = std::max(r.shipped_ulps, ulps_apart(float(g), float(s)));
  }
  return r;
}

}  // namespace

double ulp_of(double scale) {
  scale = std::fabs(scale);
  if (!(scale >= 0x1p-126)) return 0x1p-149;  // denormals (and zero): their fixed spacing
  int e = 0;
  std::frexp(scale, &e);  // scale = m·2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 24);
}

double ulps_apart(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return INFINITY;
  auto ordered = [](float f) {
    int64_t i = std::bit_cast<int32_t>(f);
    return i >= 0 ? i : int64_t(INT32_MIN) - i;
  };
  return double(std::llabs(ordered(a) - ordered(b)));
}

double word_value(Elem e, uint32_t w) {
  switch (e) {
    case Elem::F32:
      return word_float(w);
    case Elem::U32:
      return w;
    case Elem::I32:
      return int32_t(w);
    case Elem::HeightKey:
      return word_float((w & 0x80000000u) ? w & 0x7fffffffu : ~w);
  }
  return 0;
}

CaseCheck check_case(gpu::Context& ctx, const Exercise& e, const Case& c, UserKernel& k) {
  CaseCheck out;
  out.name = c.name, out.why = c.why;
  const Operator& op = find_operator(e.op);
  Problem p = op.problem(ctx, c, k.local_size());
  out.trouble = interface_problem(k, p);
  if (!out.trouble.empty()) return out;

  // The user's run: its own buffers, each followed by guard words.
  std::vector<gpu::Buffer> buffers;
  std::vector<gpu::Bind> binds;
  for (auto& a : p.arrays) {
    std::vector<uint32_t> words = a.words;
    words.resize(a.words.size() + kGuardWords, kCanary);
    buffers.push_back(buffer_of(ctx, words));
  }
  for (auto& b : buffers) binds.push_back(gpu::storage_buffer(b));
  size_t messages_before = ctx.validation_messages().size();
  k.take_status();
  auto run = [&](VkCommandBuffer cmd) {
    k.bind(cmd, binds, p.push.data(), uint32_t(p.push.size()));
    k.dispatch(cmd, p.invocations.x, p.invocations.y, p.invocations.z);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
  };
  timed_submit(ctx, run);
  out.trouble = k.trouble(k.take_status());
  bool stopped = !out.trouble.empty();  // by the loop budget: not run again for its time
  auto messages = ctx.validation_messages();
  out.validation.assign(messages.begin() + long(std::min(messages_before, messages.size())), messages.end());

  std::vector<std::vector<uint32_t>> got(p.arrays.size());
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const Array& a = p.arrays[i];
    std::vector<uint32_t> all(a.words.size() + kGuardWords);
    buffers[i].download(all.data(), all.size() * 4);
    for (size_t w = a.words.size(); w < all.size() && out.trouble.empty(); ++w)
      if (all[w] != kCanary)
        out.trouble = "the kernel wrote past the end of " + a.name + ": its word " + std::to_string(w) + " (" + a.name +
                      " holds " + std::to_string(a.words.size()) + " words): a missing bounds test?";
    for (size_t w = 0; a.input() && w < a.words.size() && out.trouble.empty(); ++w)
      if (all[w] != a.words[w])
        out.trouble = "the kernel changed its input " + a.name + " (at element " + std::to_string(w / a.components) +
                      "): inputs are read-only";
    all.resize(a.words.size());
    got[i] = std::move(all);
  }

  if (!stopped) {  // the time of a second run on the same inputs
    for (size_t i = 0; i < p.arrays.size(); ++i)
      if (p.arrays[i].output()) buffers[i].upload(p.arrays[i].words);
    out.user_ms = timed_submit(ctx, run);
    k.take_status();
  }

  std::vector<Want> want = op.twin(c, p);
  ShippedRun shipped = op.shipped(ctx, c, p);
  out.shipped_ms = shipped.ms;
  bool right = true;
  for (size_t i = 0; i < p.arrays.size(); ++i)
    if (p.arrays[i].output()) {
      out.arrays.push_back(compare(e, op, c, p, i, got[i], want[i], shipped.words[i]));
      right = right && out.arrays.back().wrong == 0;
    }
  out.pass = right && out.trouble.empty() && out.validation.empty();
  return out;
}

Report check_kernel(gpu::Context& ctx, const Exercise& e, UserKernel& k, int only) {
  Report r;
  r.compile.ok = true;
  r.robust = ctx.robust;
  for (size_t i = 0; i < e.cases.size(); ++i)
    if (only < 0 || size_t(only) == i) r.cases.push_back(check_case(ctx, e, e.cases[i], k));
  r.pass = std::all_of(r.cases.begin(), r.cases.end(), [](const CaseCheck& c) { return c.pass; });
  r.verdict = verdict(e, r);
  return r;
}

Report check_source(gpu::Context& ctx, const Exercise& e, const std::string& source, const std::string& name,
                    int only) {
  CompileOutcome compiled;
  const size_t messages_before = ctx.validation_messages().size();
  auto k = UserKernel::compile(ctx, source, name, compiled);
  // With --validate, what the layer says of the pipeline fails the kernel as a compiler error would.
  auto messages = ctx.validation_messages();
  for (size_t i = messages_before; k && i < messages.size(); ++i) {
    compiled.ok = false;
    compiled.errors.push_back({0, "error: the Vulkan validation layer: " + messages[i]});
    compiled.messages += name + ": error: the Vulkan validation layer: " + messages[i] + "\n";
  }
  if (!compiled.ok) k.reset();
  if (!k) {
    Report r;
    r.compile = compiled;
    r.verdict = verdict(e, r);
    return r;
  }
  Report r = check_kernel(ctx, e, *k, only);
  r.compile = compiled;  // its warnings
  return r;
}

std::string verdict(const Exercise& e, const Report& r) {
  if (!r.compile.ok) {
    int line = 0;
    for (auto& err : r.compile.errors)
      if (err.line) {
        line = err.line;
        break;
      }
    return "FAIL: the kernel does not compile" + (line ? " (first error on line " + std::to_string(line) + ")" : "");
  }
  size_t failed = std::count_if(r.cases.begin(), r.cases.end(), [](const CaseCheck& c) { return !c.pass; });
  std::string tol = e.tolerance.ulps == 0 ? "bit for bit" : "within " + num(e.tolerance.ulps) + " ulps";
  if (failed == 0)
    return "PASS: " + std::to_string(r.cases.size()) + " of " + std::to_string(r.cases.size()) + " cases right, " + tol;
  for (auto& c : r.cases)
    if (!c.pass)
      return "FAIL: " + std::to_string(failed) + " of " + std::to_string(r.cases.size()) +
             " cases wrong (the first: " + c.name + ")";
  return "FAIL";
}

std::string format_report(const Exercise& e, const Report& r) {
  std::ostringstream s;
  s << "exercise " << e.name << ": " << e.title << " (" << e.source << ")\n";
  s << "tolerance: " << (e.tolerance.ulps == 0 ? "bit for bit" : num(e.tolerance.ulps) + " ulps") << ", "
    << e.tolerance.what << "\n";
  if (r.compile.ok)
    s << "writes past an array: " << kGuardWords << " guard words after each catch them"
      << (r.robust ? "; further ones are dropped by the device (robust buffer access)\n"
                   : "; robust buffer access is off on this device, so further ones are not caught\n");
  if (!r.compile.messages.empty()) s << r.compile.messages;
  for (size_t i = 0; i < r.cases.size(); ++i) {
    const CaseCheck& c = r.cases[i];
    s << "case " << i + 1 << " \"" << c.name << "\"" << (c.why.empty() ? "" : " (" + c.why + ")") << ": "
      << (c.pass ? "pass" : "FAIL") << "; GPU time " << ms_text(c.user_ms) << ", shipped kernel "
      << ms_text(c.shipped_ms) << "\n";
    if (!c.trouble.empty()) s << "  " << c.trouble << "\n";
    for (auto& m : c.validation) s << "  validation " << m << "\n";
    for (auto& a : c.arrays) {
      s << "  " << a.name << ": max abs error " << num(a.max_abs) << ", relative " << num(a.max_rel) << ", "
        << num(a.max_ulps) << " ulps; against the shipped kernel " << num(a.shipped_abs) << " (" << num(a.shipped_ulps)
        << " ulps)\n";
      if (a.wrong)
        s << "  " << a.wrong << " of " << a.words << " words wrong; the first: " << wrong_word_name(a) << " = "
          << num(a.got) << ", the CPU twin says " << num(a.want)
          << (a.allowed > 0 ? " (allowed " + num(a.allowed) + ")" : "") << "; from " << a.inputs << "\n";
      if (a.shipped_wrong)
        s << "  (the shipped kernel itself is outside the tolerance on " << a.shipped_wrong
          << " words: a bug of ours)\n";
    }
  }
  s << "verdict: " << r.verdict << "\n";
  return s.str();
}

std::string wrong_word_name(const ArrayCheck& a) {
  std::string name = a.name + "[" + std::to_string(a.first_wrong) + "]";
  if (a.component >= 0)
    name += a.component < 4 ? std::string(".") + "xyzw"[a.component] : "[" + std::to_string(a.component) + "]";
  return name;
}

}  // namespace exercise
