#include "app/plot_files.h"

#include "render/plot_picture.h"
#include "render/target.h"

#include <fstream>

void write_plot_files(gpu::Context& ctx, render::LegendView& view, const PlotData& plot, const std::string& title,
                      uint32_t width, uint32_t height, const std::filesystem::path& png) {
  static const float kBackground[4] = {0.09f, 0.09f, 0.11f, 1.0f};
  render::TextMesh text;
  render::plot_vertices(text, {title, plot.spec.x_label, plot.spec.y_label, plot.spec.log_y, plot.x, plot.y},
                        {{0, 0}, {width, height}}, render::picture_text_scale(float(height)));
  render::OffscreenTarget target(ctx, width, height);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    render::begin_rendering(cmd, target.frame(), kBackground);
    view.draw(cmd, target.frame(), text);
    render::end_rendering(cmd);
  });
  if (png.has_parent_path()) std::filesystem::create_directories(png.parent_path());
  render::write_png(png, width, height, target.read_rgba());
  auto csv = std::filesystem::path(png).replace_extension(".csv");
  std::ofstream out(csv);
  if (!(out << plot_csv(plot.spec, plot.x, plot.y))) throw std::runtime_error("cannot write " + csv.string());
}
