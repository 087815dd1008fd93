// Binary .meshb and .solb, versions 1 to 4, either byte order.
#include "compute/mesh/io/meshb.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  refuse_or_read(data, size, [](const std::string& s) { mesh::parse_mesh(s, "fuzz.meshb", true); });
  return refuse_or_read(data, size, [](const std::string& s) { mesh::parse_solution(s, "fuzz.solb", true); });
}
