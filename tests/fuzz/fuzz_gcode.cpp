// Tool paths as G-code, interpolated at the lab's default step.
#include "fuzz_common.h"
#include "machining/gcode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { machining::parse_gcode(s, "fuzz.nc", 0.25f); });
}
