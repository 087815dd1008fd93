// The text chunk of a PNG capture (its run's manifest), read for --preset shot.png.
#include "fuzz_common.h"
#include "io/png_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return refuse_or_read(data, size, [](const std::string& s) { io::read_png_text(s, "vklab", "fuzz.png"); });
}
