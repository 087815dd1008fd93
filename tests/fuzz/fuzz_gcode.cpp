// Tool paths as G-code, interpolated at the lab's default step.
#include "compute/machining/io/gcode.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { machining::parse_gcode(s, "fuzz.nc", 0.25f); });
}
