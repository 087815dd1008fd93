// NumPy arrays: the machining lab's stock heights.
#include "compute/io/npy.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { parse_npy(s, "fuzz.npy"); });
}
