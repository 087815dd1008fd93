// What the checker knows of a lab's operator (one a shipped exercise stands in for): the
// arrays and push constants a kernel for it takes, built for one of the exercise's cases; the
// lab's CPU twin, which says what every output word must be and on what scale its rounding is
// measured; and the lab's shipped GPU kernel, run on the same inputs. The operators of each lab
// are in its folder, compute/<lab>/exercise.cpp, found by the build (exercise_labs.inc, below).
#pragma once
#include "compute/gpu/pipeline.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace exercise {

// How the 32-bit words of an array read: floats, integers, or the machining lab's
// order-preserving keys of float heights (compared as the heights).
enum class Elem { F32, U32, I32, HeightKey };

struct Array {
  enum class Role { In, Out, InOut, Scratch };  // Scratch: the kernel's workspace, never compared
  std::string name;                             // as the kernel declares it
  Role role = Role::In;
  Elem elem = Elem::F32;
  uint32_t components = 1;      // words an element (vec4: 4)
  uint32_t width = 0;           // elements a row where the array is a grid (the difference picture)
  std::vector<uint32_t> words;  // the contents before the run
  bool input() const { return role == Role::In; }
  bool output() const { return role == Role::Out || role == Role::InOut; }
  uint32_t elements() const { return uint32_t(words.size() / components); }
};

struct Problem {
  std::vector<Array> arrays;       // binding i holds arrays[i]
  std::vector<uint8_t> push;       // the push constants, as the kernel's block lays them out
  gpu::Dim3 invocations{1, 1, 1};  // the dispatch covers these (its groups from the kernel's workgroup)
  template <class T>
  void set_push(const T& p) {
    push.resize(sizeof(T));
    std::memcpy(push.data(), &p, sizeof(T));
  }
};

// One of an exercise's cases (check.json): its name, why it is there, a seed and its values.
// Integers are checked before anything is sized by them: whole, and at most kMaxCaseInteger
// in size (16 M: an array of that many floats is 64 MiB), else std::invalid_argument.
constexpr int64_t kMaxCaseInteger = int64_t(1) << 24;
struct Case {
  std::string name, why;
  uint32_t seed = 1;
  nlohmann::json values;
  uint32_t u(const char* key) const { return uint32_t(integer(key, 0)); }
  float f(const char* key) const { return values.at(key).get<float>(); }
  int i(const char* key) const { return int(integer(key, -kMaxCaseInteger)); }
  std::string s(const char* key) const { return values.at(key).get<std::string>(); }

 private:
  int64_t integer(const char* key, int64_t least) const {
    const nlohmann::json& v = values.at(key);
    if (!v.is_number_integer() || v.get<int64_t>() < least || v.get<int64_t>() > kMaxCaseInteger)
      throw std::invalid_argument("case \"" + name + "\": " + key + " = " + v.dump() + ", not a whole number from " +
                                  std::to_string(least) + " to " + std::to_string(kMaxCaseInteger));
    return v.get<int64_t>();
  }
};

// What a correct kernel leaves in an output array, a word at a time: the value, and the scale
// its rounding error is measured against (|value| unless the operator says more: the sum of
// the magnitudes of the terms, for a sum that cancels).
struct Want {
  std::vector<double> value, scale;
};

struct ShippedRun {
  std::vector<std::vector<uint32_t>> words;  // by array: each output's contents after the run
  double ms = 0;                             // its GPU time (0 where the device has no timestamps)
};

class Operator {
 public:
  virtual ~Operator() = default;
  virtual std::string id() const = 0;              // "linalg.axpby": check.json's "operator"
  virtual std::string shipped_kernel() const = 0;  // the lab's kernel it stands for: "shaders/linalg/axpby.vec.comp"
  // The arrays and push constants of case `c` for a kernel of workgroup size `local`.
  virtual Problem problem(const gpu::Context& ctx, const Case& c, gpu::Dim3 local) const = 0;
  // The CPU twin (the lab's reference where it has one): by array, empty for non-outputs.
  virtual std::vector<Want> twin(const Case& c, const Problem& p) const = 0;
  // The lab's kernel on the same inputs.
  virtual ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const = 0;
  // The inputs that made element `element` of output array `array`: "x[17] = 0.25, y[17] = -1.5, a = 2".
  virtual std::string inputs_at(const Case& c, const Problem& p, size_t array, size_t element) const = 0;
};

// Each lab's operators, defined in compute/<lab>/exercise.cpp: exercise_labs.inc, generated from
// VKLAB_LABS for the labs that have that file, says VKLAB_EXERCISE_LAB(lab) once a lab.
#define VKLAB_EXERCISE_LAB(lab) std::vector<std::unique_ptr<Operator>> lab##_operators();
#include "exercise_labs.inc"
#undef VKLAB_EXERCISE_LAB

// Every operator the shipped exercises use; throws std::invalid_argument for an unknown id.
const Operator& find_operator(const std::string& id);
std::vector<std::string> operator_ids();

// Helpers for the operators.
std::vector<uint32_t> words_of(const std::vector<float>& v);
std::vector<float> floats_of(const std::vector<uint32_t>& w);
float word_float(uint32_t w);
// Uniform floats in [lo, hi] with none within `gap` of zero (zero hides many mistakes).
std::vector<float> random_inputs(size_t n, float lo, float hi, uint32_t seed, float gap = 0.01f);
// The GPU time of the work `record` records, in one submission (0 without timestamps).
double timed_submit(gpu::Context& ctx, const std::function<void(VkCommandBuffer)>& record);
// A storage buffer holding `words` (device-local; for transfers too).
gpu::Buffer buffer_of(gpu::Context& ctx, const std::vector<uint32_t>& words);
// The shipped SPIR-V `spv` (built from shaders/), on p's arrays and push constants as they are:
// for the kernels whose interface is the exercise's. Its outputs and GPU time.
ShippedRun run_shipped_spirv(gpu::Context& ctx, const std::string& spv, const Problem& p,
                             const std::vector<int32_t>& spec = {});
// "name[i] = v" (the element's words: one, or a vector "(a, b, c)").
std::string element_text(const Array& a, size_t element);

}  // namespace exercise
