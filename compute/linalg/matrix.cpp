#include "compute/linalg/matrix.h"

#include <cstring>
#include <random>
#include <thread>

namespace linalg {

BandedMatrix laplacian_5pt(uint32_t w, uint32_t h) {
  BandedMatrix m;
  m.n = w * h;
  auto& c = m.diagonals[0];
  auto &e = m.diagonals[1], &wst = m.diagonals[-1], &s = m.diagonals[int(w)], &nth = m.diagonals[-int(w)];
  for (auto* d : {&c, &e, &wst, &s, &nth}) d->assign(m.n, 0.0f);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint32_t i = y * w + x;
      c[i] = -4.0f;
      if (x + 1 < w) e[i] = 1.0f;
      if (x > 0) wst[i] = 1.0f;
      if (y + 1 < h) s[i] = 1.0f;
      if (y > 0) nth[i] = 1.0f;
    }
  return m;
}

BandedMatrix implicit_laplacian(uint32_t w, uint32_t h, float c) {
  BandedMatrix m = laplacian_5pt(w, h);
  for (auto& [offset, d] : m.diagonals)
    for (auto& v : d) v = (offset == 0 ? 1.0f : 0.0f) - c * v;
  return m;
}

BandedMatrix Stencil5::banded() const {
  BandedMatrix m = laplacian_5pt(w, h);
  for (auto& [offset, d] : m.diagonals)
    for (auto& v : d) v = offset == 0 ? diag : v * off;
  return m;
}

BandedMatrix random_spd_band(uint32_t n, const std::vector<int>& upper_offsets, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.1f, 1.0f);
  BandedMatrix m;
  m.n = n;
  std::vector<float> row_sum(n, 0.0f);
  for (int o : upper_offsets) {
    auto& up = m.diagonals[o];
    auto& lo = m.diagonals[-o];
    up.assign(n, 0.0f);
    lo.assign(n, 0.0f);
    for (uint32_t i = 0; i + uint32_t(o) < n; ++i) {  // symmetric: M[i][i+o] = M[i+o][i]
      float v = (rng() & 1 ? 1.0f : -1.0f) * u(rng);
      up[i] = v;
      lo[i + o] = v;
      row_sum[i] += std::abs(v);
      row_sum[i + o] += std::abs(v);
    }
  }
  auto& diag = m.diagonals[0];
  diag.resize(n);
  for (uint32_t i = 0; i < n; ++i) diag[i] = row_sum[i] + u(rng);  // strictly dominant, positive
  return m;
}

BandedMatrix random_band(uint32_t n, int diagonals, uint32_t seed) {
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  BandedMatrix m;
  m.n = n;
  for (int k = 0; k < diagonals; ++k) m.diagonals[k - diagonals / 2].resize(n);
  auto fill = [&](std::vector<float>& d, std::mt19937& rng) {
    auto uk = u;
    for (auto& v : d) v = (rng() & 1 ? 1.0f : -1.0f) * uk(rng);
  };
  if (n < (1u << 20)) {  // one generator through the diagonals in turn
    std::mt19937 rng(seed);
    for (auto& [offset, d] : m.diagonals) fill(d, rng);
    return m;
  }
  // A million rows and more (the bench's sizes): a generator and a thread a diagonal, seeded
  // from `seed` and the diagonal's place: the same matrix every run, in a second, not ten.
  std::vector<std::thread> pool;
  uint32_t k = 0;
  for (auto& [offset, d] : m.diagonals)
    pool.emplace_back([&fill, &d, s = seed * 7919u + 104729u * ++k] {
      std::mt19937 rng(s);
      fill(d, rng);
    });
  for (auto& t : pool) t.join();
  return m;
}

DenseMatrix random_dense(uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  DenseMatrix m;
  m.n = n;
  m.columns.resize(size_t(n) * n);
  for (auto& v : m.columns) v = (rng() & 1 ? 1.0f : -1.0f) * u(rng);
  return m;
}

GpuBanded::GpuBanded(gpu::Context& ctx, const BandedMatrix& m, Layout l, bool keep_host)
    : n(m.n), quads((m.n + 3) / 4), side(0), count(uint32_t(m.diagonals.size())), layout(l) {
  if (m.diagonals.empty()) throw std::invalid_argument("a banded matrix needs at least one diagonal");
  size_t per = l == Layout::Texture ? size_t(texture_side(quads)) * texture_side(quads) * 4 : size_t(quads) * 4;
  for (auto& [offset, values] : m.diagonals) {
    if (values.size() != n) throw std::invalid_argument("diagonal " + std::to_string(offset) + " has the wrong length");
    offsets.push_back(offset);
  }
  // The diagonals one after the other, each padded with zeros to `per` values.
  auto place = [&](auto&& write) {
    const std::vector<float> zeros(per - n, 0.0f);
    size_t at = 0;
    for (auto& [offset, values] : m.diagonals) {
      write(values.data(), at, size_t(n));
      if (!zeros.empty()) write(zeros.data(), at + n, zeros.size());
      at += per;
    }
  };
  if (l == Layout::Texture) {
    side = texture_side(quads);
    if (count > ctx.props.limits.maxImageArrayLayers) throw std::invalid_argument("too many diagonals for this device");
    std::vector<float> packed(per * count);
    place([&](const float* v, size_t at, size_t k) { std::copy(v, v + k, packed.begin() + long(at)); });
    image = gpu::Image(ctx, side, side, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT,
                       VK_IMAGE_LAYOUT_GENERAL, count);
    image.upload(packed);
  } else {  // straight from the diagonals (a band of billions of values is not copied first)
    buffer = gpu::Buffer(ctx, per * count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    place([&](const float* v, size_t at, size_t k) { buffer.upload(v, k * 4, at * 4); });
  }
  offset_buffer = gpu::Buffer(ctx, offsets.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  offset_buffer.upload(offsets);
  if (keep_host) {
    host = gpu::Buffer(ctx, per * count * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    place([&](const float* v, size_t at, size_t k) { std::memcpy(static_cast<float*>(host.mapped()) + at, v, k * 4); });
  }
}

void GpuBanded::record_upload(VkCommandBuffer cmd) const {
  if (!host) throw std::logic_error("GpuBanded::record_upload: the matrix was built without keep_host");
  // The last application's reads done before the copy overwrites them; the copy done before the
  // next. The texture goes to the copy's own layout and back (the shaders read it in GENERAL).
  const auto read = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  if (layout == Layout::Texture) {
    const uint32_t layers = image.layer_count();
    gpu::image_barrier(cmd, image.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, read, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                       VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, layers);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
    region.imageExtent = {side, side, 1};
    vkCmdCopyBufferToImage(cmd, host.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    gpu::image_barrier(cmd, image.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, read,
                       VK_ACCESS_2_SHADER_STORAGE_READ_BIT, layers);
    return;
  }
  gpu::barrier(cmd, read, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
               VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferCopy all{0, 0, host.size()};
  vkCmdCopyBuffer(cmd, host.handle(), buffer.handle(), 1, &all);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, read,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

gpu::Bind GpuBanded::bind_diagonals() const {
  return layout == Layout::Texture ? gpu::storage_image(image) : gpu::storage_buffer(buffer);
}

GpuDense::GpuDense(gpu::Context& ctx, const DenseMatrix& m) : n(m.n), quads((m.n + 3) / 4) {
  size_t side = size_t(quads) * 4;  // padded dimension
  std::vector<float> by_column(side * side, 0.0f), by_row(side * side, 0.0f);
  for (uint32_t c = 0; c < n; ++c)
    for (uint32_t r = 0; r < n; ++r) {
      float v = m.columns[size_t(c) * n + r];
      by_column[c * side + r] = v;
      by_row[r * side + c] = v;
    }
  columns = gpu::Buffer(ctx, by_column.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  columns.upload(by_column);
  rows = gpu::Buffer(ctx, by_row.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  rows.upload(by_row);
}

}  // namespace linalg
