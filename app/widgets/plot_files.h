// A plot written as files for slides and projection: its picture (PNG, the size asked for,
// render/plot_picture.h) and its data (a CSV beside it, same name). What a plot's PNG button in
// the window and headless --plot NAME=FILE.png do.
#pragma once
#include "app/widgets/plot.h"
#include "app/widgets/table.h"
#include "render/legend.h"

#include <filesystem>
#include <string>

// Draws on the GPU through `view` (call with the GPU idle for it) and writes `png` and its .csv;
// throws std::runtime_error naming a file it cannot write.
void write_plot_files(gpu::Context& ctx, render::LegendView& view, const PlotData& plot, const std::string& title,
                      uint32_t width, uint32_t height, const std::filesystem::path& png);
// A table as a picture of its own, sized to its content with letters for a picture `height`
// pixels high (no cell cut or shrunk), and its .csv beside it.
void write_table_files(gpu::Context& ctx, render::LegendView& view, const TableData& table, uint32_t height,
                       const std::filesystem::path& png);
