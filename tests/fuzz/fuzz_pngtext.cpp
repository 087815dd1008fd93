// The text chunk of a PNG capture (its run's manifest), read for --preset shot.png.
#include "compute/io/png_text.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { io::read_png_text(s, "vklab", "fuzz.png"); });
}
