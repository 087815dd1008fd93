// Tool paths as position lines (x y z [i j k] [omega]).
#include "compute/machining/io/path.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { machining::parse_positions(s, "fuzz.txt"); });
}
