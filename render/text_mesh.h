// Triangles for flat quads and text in pixels, 2 x vec4 a vertex (position, colour): what
// the legend and the charts drawn into pictures are made of. Text is stb_easy_font's line
// font, ASCII only (the few UTF-8 letters the labs use are spelled out).
#pragma once
#include <string>
#include <vector>

namespace render {

std::string ascii(const std::string& utf8);

struct TextMesh {
  std::vector<float> v;
  void vertex(float x, float y, const float c[4]);
  void quad(float x0, float y0, float x1, float y1, const float c0[4], const float c1[4]);  // c0 left, c1 right
  void text(float x, float y, const std::string& utf8, float scale, const float c[4]);      // (x, y): top-left
  static float width(const std::string& utf8);                                              // at scale 1, in pixels
  static constexpr float kHeight = 7;  // a capital's height at scale 1
};

}  // namespace render
