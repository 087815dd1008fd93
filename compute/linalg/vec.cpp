#include "compute/linalg/vec.h"

#include <stdexcept>

namespace linalg {

const char* layout_name(Layout l) { return l == Layout::Texture ? "texture" : "buffer"; }
const char* variant_name(Variant v) { return v == Variant::Thesis ? "thesis" : "modern"; }

uint32_t texture_side(uint32_t quads) {
  uint32_t s = 1;
  while (uint64_t(s) * s < quads) s *= 2;
  return s;
}

Vec::Vec(gpu::Context& ctx, uint32_t n, Layout layout) : n_(n), quads_((n + 3) / 4), layout_(layout) {
  if (n == 0) throw std::invalid_argument("a vector needs at least one element");
  if (layout == Layout::Texture) {
    side_ = texture_side(quads_);
    if (side_ > ctx.props.limits.maxImageDimension2D)
      throw std::invalid_argument("vector of " + std::to_string(n) + " values needs a " + std::to_string(side_) +
                                  "² texture, more than this device's " +
                                  std::to_string(ctx.props.limits.maxImageDimension2D));
    image_ = gpu::Image(ctx, side_, side_, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
  } else {
    if (16.0 * quads_ > double(ctx.props.limits.maxStorageBufferRange))
      throw std::invalid_argument("vector of " + std::to_string(n) + " values is larger than this device's " +
                                  "largest storage buffer");
    buffer_ = gpu::Buffer(ctx, 16ull * quads_, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    ctx.submit_now([&](VkCommandBuffer cmd) {  // padding starts at zero
      vkCmdFillBuffer(cmd, buffer_.handle(), 0, VK_WHOLE_SIZE, 0);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    });
  }
}

void Vec::upload(const std::vector<float>& values) {
  if (values.size() != n_) throw std::invalid_argument("Vec::upload: expected " + std::to_string(n_) + " values");
  std::vector<float> padded(layout_ == Layout::Texture ? size_t(side_) * side_ * 4 : size_t(quads_) * 4, 0.0f);
  std::copy(values.begin(), values.end(), padded.begin());
  if (layout_ == Layout::Texture)
    image_.upload(padded);
  else
    buffer_.upload(padded);
}

size_t Vec::set(uint32_t i, float v) {
  if (i >= n_) throw std::out_of_range("Vec::set: element " + std::to_string(i) + " of " + std::to_string(n_));
  if (layout_ == Layout::Buffer) {
    buffer_.upload(&v, sizeof v, VkDeviceSize(i) * sizeof v);
    return sizeof v;
  }
  const uint32_t q = i / 4;
  const VkOffset2D texel{int32_t(q % side_), int32_t(q / side_)};
  float rgba[4];
  image_.download_texels(rgba, texel, {1, 1});  // the three other channels
  rgba[i % 4] = v;
  image_.upload_texels(rgba, texel, {1, 1});
  return 2 * sizeof rgba;
}

std::vector<float> Vec::download_padded() const {
  return layout_ == Layout::Texture ? image_.download<float>() : buffer_.download<float>();
}

std::vector<float> Vec::download() const {
  auto all = download_padded();
  all.resize(n_);
  return all;
}

gpu::Bind Vec::bind() const {
  return layout_ == Layout::Texture ? gpu::storage_image(image_) : gpu::storage_buffer(buffer_);
}

}  // namespace linalg
