// A lab picture that is a chart (a table or a map with axes): cells uploaded once into an
// R32F image, drawn by the heat map into render::chart_rect, and the chart's labels and colour
// bar handed to the legend so captures carry them.
#pragma once
#include "compute/gpu/resources.h"
#include "render/chart.h"
#include "render/heatmap_view.h"
#include "render/legend.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct ChartPicture {
  render::Chart chart;       // its grid_w x grid_h is the cells' shape
  std::vector<float> cells;  // row-major, grid_w a row
  std::string colormap = "heat";
  float lo = 0, hi = 1;
  std::optional<render::LegendBar> bar;  // none where the colours are explained in a legend line
  std::string key;                       // that line ("white: bit 1"), or ""
};

class ChartImage {
 public:
  void set(gpu::Context& ctx, ChartPicture picture) {
    auto image = std::make_unique<gpu::Image>(ctx, picture.chart.grid_w, picture.chart.grid_h, VK_FORMAT_R32_SFLOAT,
                                              VK_IMAGE_USAGE_STORAGE_BIT);
    image->upload(picture.cells);
    image_ = std::move(image);
    picture_ = std::move(picture);
  }
  void draw(VkCommandBuffer cmd, const render::Frame& frame, render::HeatmapView& view) const {
    view.draw(cmd, frame, *image_,
              {picture_.colormap, picture_.lo, picture_.hi, false, render::chart_rect(frame.area, picture_.chart)});
  }
  // The legend: these lines, then the key and the chart's colour bar and labels.
  render::Legend legend(std::vector<std::string> lines) const {
    if (!picture_.key.empty()) lines.push_back(picture_.key);
    return {std::move(lines), picture_.bar, picture_.chart};
  }
  const ChartPicture& picture() const { return picture_; }
  const gpu::Image* image() const { return image_.get(); }

 private:
  ChartPicture picture_;
  std::unique_ptr<gpu::Image> image_;
};
