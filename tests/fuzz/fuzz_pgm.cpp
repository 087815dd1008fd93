// Netpbm graymaps, P2 and P5.
#include "compute/io/pgm.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { parse_pgm(s, "fuzz.pgm"); });
}
