// Text inside a PNG: an iTXt chunk (UTF-8) put after the header, and read back. vklab's
// captures carry their run's manifest this way (keyword "vklab": the lab, its parameters,
// the device, the step and the version), so `--preset shot.png` replays a picture.
#pragma once
#include <cstdint>
#include <string>

namespace io {

// `png` with an iTXt chunk (keyword, text) inserted after IHDR; std::runtime_error if `png`
// is not a PNG.
std::string add_png_text(const std::string& png, const std::string& keyword, const std::string& text);
// The text of the first iTXt or tEXt chunk with this keyword; "" when there is none.
// std::runtime_error naming `name` when the bytes are not a PNG or a chunk runs past them.
std::string read_png_text(const std::string& png, const std::string& keyword, const std::string& name);

// PNG's chunk CRC (ISO 3309 / zlib's crc32) of `bytes`.
uint32_t png_crc32(const std::string& bytes);

}  // namespace io
