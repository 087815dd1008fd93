// NumPy arrays: the machining lab's stock heights.
#include "fuzz_common.h"
#include "io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { parse_npy(s, "fuzz.npy"); });
}
