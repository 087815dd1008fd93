// Presets: the JSON a user hands --preset or the panel's Load (params.json from --dump too).
#include "fuzz_common.h"
#include "io/preset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { io::parse_preset(s, "fuzz.json"); });
}
