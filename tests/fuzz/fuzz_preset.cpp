// Presets: the JSON a user hands --preset or the panel's Load (params.json from --dump too).
#include "compute/io/preset.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { io::parse_preset(s, "fuzz.json"); });
}
