#include "app/widgets/plot_files.h"
#include "compute/io/output.h"

#include "render/plot_picture.h"
#include "render/table_picture.h"
#include "render/target.h"

#include <fstream>

namespace {

void draw_to_png(gpu::Context& ctx, render::LegendView& view, const render::TextMesh& text, uint32_t width,
                 uint32_t height, const std::filesystem::path& png) {
  render::OffscreenTarget target(ctx, width, height);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    render::begin_rendering(cmd, target.frame(), render::kBackground);
    view.draw(cmd, target.frame(), text);
    render::end_rendering(cmd);
  });
  if (png.has_parent_path()) std::filesystem::create_directories(png.parent_path());
  render::write_png(png, width, height, target.read_rgba());
}

void write_csv(const std::filesystem::path& png, const std::string& text) {
  auto csv = std::filesystem::path(png).replace_extension(".csv");
  io::write_file(csv, text);
}
}  // namespace

void write_plot_files(gpu::Context& ctx, render::LegendView& view, const PlotData& plot, const std::string& title,
                      uint32_t width, uint32_t height, const std::filesystem::path& png) {
  render::TextMesh text;
  render::plot_vertices(text, {title, plot.spec.x_label, plot.spec.y_label, plot.spec.log_y, plot.x, plot.y},
                        {{0, 0}, {width, height}}, render::picture_text_scale(float(height)));
  draw_to_png(ctx, view, text, width, height, png);
  write_csv(png, plot_csv(plot.spec, plot.x, plot.y));
}

void write_table_files(gpu::Context& ctx, render::LegendView& view, const TableData& table, uint32_t height,
                       const std::filesystem::path& png) {
  render::TablePicture t{table.title, table.header, table.rows, table.colours};
  float scale = render::picture_text_scale(float(height));
  VkExtent2D size = render::table_picture_size(t, scale);
  render::TextMesh text;
  render::table_vertices(text, t, {{0, 0}, size}, scale);
  draw_to_png(ctx, view, text, size.width, size.height, png);
  write_csv(png, table_csv(table));
}
