// Vectors for the linear algebra lab (seed 000, §3.2): n floats grouped in quads of 4,
// zero padded, stored either the thesis's way (an RGBA32F square power-of-two texture,
// quad q at texel (q % side, q / side)) or as a plain storage buffer of vec4.
#pragma once
#include "compute/gpu/pipeline.h"

#include <string>
#include <vector>

namespace linalg {

enum class Layout { Texture, Buffer };
const char* layout_name(Layout l);  // "texture" / "buffer"

enum class Variant { Thesis, Modern };
const char* variant_name(Variant v);  // "thesis" / "modern"

class Vec {
 public:
  Vec() = default;
  Vec(gpu::Context& ctx, uint32_t n, Layout layout);

  uint32_t n() const { return n_; }
  uint32_t quads() const { return quads_; }
  uint32_t side() const { return side_; }  // texture side (texels); 0 for buffers
  Layout layout() const { return layout_; }
  double bytes() const { return 16.0 * quads_; }  // storage actually moved when read once

  void upload(const std::vector<float>& values);  // values.size() == n; padding is zeroed
  std::vector<float> download() const;            // n values
  std::vector<float> download_padded() const;     // every stored float, padding included
  // The operator[] the thesis wished for (Bleton 2005, ch. 5: "un opérateur [ ]" through
  // glTexSubImage2D, which would "first need the vector's texture read back, to know the values
  // of the colour channels around the channel to update"): element i set to v. The texture
  // layout reads its texel back (16 bytes), replaces channel i % 4 and writes the texel (16
  // bytes); the buffer layout writes the one float (4 bytes). Returns the bytes moved.
  size_t set(uint32_t i, float v);
  gpu::Bind bind() const;
  const gpu::Buffer& buffer() const { return buffer_; }  // buffer layout only
  const gpu::Image& image() const { return image_; }     // texture layout only

 private:
  uint32_t n_ = 0, quads_ = 0, side_ = 0;
  Layout layout_ = Layout::Buffer;
  gpu::Image image_;
  gpu::Buffer buffer_;
};

// Smallest power of two s with s·s >= quads (the thesis's texture side).
uint32_t texture_side(uint32_t quads);

}  // namespace linalg
