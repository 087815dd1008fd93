// The check: the user's kernel run on each of an exercise's cases, in buffers of its own
// (each with a guard zone after it, so a write past the end is seen and touches nothing of a
// lab's), beside the lab's shipped kernel on the same inputs, both compared with the CPU twin:
// max abs / relative error and ulps, the first wrong element with its inputs, a difference
// picture, validation messages, and both GPU times. Where vklab runs a user's kernel (`vklab
// exercise --check`, the window opened with --exercise) the device has robustBufferAccess on
// (gpu::ContextOptions::robust_buffer_access): a write far past an array is dropped; without
// it (an Exercise tab opened later in a window) only the guard words catch overruns.
#pragma once
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"

namespace exercise {

// The words after each array of the user's kernel that a correct kernel never touches.
constexpr uint32_t kGuardWords = 4096;

// One output array against the CPU twin (the tolerance) and the shipped kernel.
struct ArrayCheck {
  std::string name;
  size_t words = 0, wrong = 0;                    // compared, outside the tolerance
  double max_abs = 0, max_rel = 0, max_ulps = 0;  // against the twin
  double shipped_abs = 0, shipped_ulps = 0;       // the user's kernel against the shipped one
  size_t shipped_wrong = 0;                       // the shipped kernel's own words outside the tolerance (0!)
  long first_wrong = -1;                          // its element, -1: none
  int component = -1;                             // the wrong word's place in it (x, y, z, w), -1: a scalar
  double got = 0, want = 0, allowed = 0;          // at the first wrong word
  std::string inputs;                             // what that element was computed from
  std::vector<float> picture;                     // an element's worst |error| / allowed
  uint32_t width = 0;                             // elements a row of the picture
};

struct CaseCheck {
  std::string name, why;
  bool pass = false;
  std::string trouble;  // what stopped or spoiled the run (loop budget, a guard, an input changed, the interface)
  std::vector<ArrayCheck> arrays;
  double user_ms = 0, shipped_ms = 0;   // a second run of each, timed (the first pays the driver's warm-up)
  std::vector<std::string> validation;  // messages the user's run raised
};

struct Report {
  CompileOutcome compile;
  std::vector<CaseCheck> cases;
  bool pass = false;
  bool robust = false;  // the device dropped writes past an array (robustBufferAccess)
  std::string verdict;  // one line: "PASS: 4 of 4 cases within 2 ulps" ...
};

// Compiles `source` and checks it on every case (`only` >= 0: that case alone). Throws
// gpu::GpuFailure when the GPU does not finish (the context's wait limit).
Report check_source(gpu::Context& ctx, const Exercise& e, const std::string& source, const std::string& name,
                    int only = -1);
// The same with a compiled kernel.
Report check_kernel(gpu::Context& ctx, const Exercise& e, UserKernel& k, int only = -1);
CaseCheck check_case(gpu::Context& ctx, const Exercise& e, const Case& c, UserKernel& k);
// The verdict line from the cases.
std::string verdict(const Exercise& e, const Report& r);

// The report as the command line prints it.
std::string format_report(const Exercise& e, const Report& r);
// "OUT[17].y": where an array's first wrong word is.
std::string wrong_word_name(const ArrayCheck& a);

// |got − want| within `ulps` ulps of `scale` (ulps 0: got == want exactly, as floats).
double ulp_of(double scale);          // the spacing of floats at |scale|
double ulps_apart(float a, float b);  // representable floats between a and b
double word_value(Elem e, uint32_t w);

}  // namespace exercise
