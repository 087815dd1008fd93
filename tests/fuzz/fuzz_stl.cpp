// Tool meshes: binary and ASCII STL.
#include "compute/machining/io/tool.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { machining::parse_stl(s, "fuzz.stl"); });
}
