#include "compute/mesh/colouring.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace mesh {

Colouring colour_elements(const std::vector<uint32_t>& v, uint32_t per, size_t vertices) {
  const size_t n = per ? v.size() / per : 0;
  for (uint32_t x : v)
    if (x >= vertices)
      throw std::invalid_argument("colouring: vertex " + std::to_string(x) + " past the " + std::to_string(vertices) +
                                  " vertices");
  // Each vertex's colours so far: a bit a colour, `words` 64-bit words a vertex (one more
  // whenever an element needs a colour past them).
  size_t words = 1;
  std::vector<uint64_t> used(vertices, 0), taken;
  Colouring out;
  out.colour.resize(n);
  uint32_t colours = 0;
  for (size_t e = 0; e < n; ++e) {
    const uint32_t* ev = v.data() + e * per;
    taken.assign(words, 0);
    for (uint32_t c = 0; c < per; ++c)
      for (size_t w = 0; w < words; ++w) taken[w] |= used[ev[c] * words + w];
    size_t w = 0;
    while (w < words && taken[w] == ~uint64_t(0)) ++w;
    if (w == words) {  // every colour so far is taken around this element: a word more a vertex
      std::vector<uint64_t> wider(vertices * (words + 1), 0);
      for (size_t x = 0; x < vertices; ++x) std::copy_n(&used[x * words], words, &wider[x * (words + 1)]);
      used = std::move(wider), ++words;
    }
    uint32_t colour = uint32_t(64 * w) + uint32_t(w < taken.size() ? std::countr_one(taken[w]) : 0);
    for (uint32_t c = 0; c < per; ++c) used[ev[c] * words + colour / 64] |= uint64_t(1) << (colour % 64);
    out.colour[e] = colour;
    colours = std::max(colours, colour + 1);
  }
  // The classes one after the other, each in the elements' order (a counting sort).
  out.offsets.assign(colours + 1, 0);
  for (uint32_t c : out.colour) ++out.offsets[c + 1];
  for (uint32_t c = 0; c < colours; ++c) out.offsets[c + 1] += out.offsets[c];
  out.order.resize(n);
  std::vector<uint32_t> next(out.offsets.begin(), out.offsets.end() - (colours ? 1 : 0));
  for (size_t e = 0; e < n; ++e) out.order[next[out.colour[e]]++] = uint32_t(e);
  return out;
}

uint32_t largest_ball(const std::vector<uint32_t>& v, uint32_t per, size_t vertices) {
  std::vector<uint32_t> degree(vertices, 0);
  for (size_t e = 0; per && e < v.size() / per; ++e) {
    const uint32_t* ev = v.data() + e * per;
    for (uint32_t c = 0; c < per; ++c)
      if (std::find(ev, ev + c, ev[c]) == ev + c) ++degree.at(ev[c]);  // a vertex repeated counts once
  }
  return degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
}

}  // namespace mesh
