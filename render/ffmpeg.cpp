#include "render/ffmpeg.h"

#include "compute/io/platform.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace render {

namespace {

Ffmpeg load() {
  // FFmpeg 5 (Debian 12's), by its libraries' POSIX and Windows names
  const platform::LibraryNames names[4] = {{{"libavutil.so.57"}, {"avutil-57.dll"}},
                                           {{"libswscale.so.6"}, {"swscale-6.dll"}},
                                           {{"libavcodec.so.59"}, {"avcodec-59.dll"}},
                                           {{"libavformat.so.59"}, {"avformat-59.dll"}}};
  std::vector<platform::Library> libs;
  for (const auto& n : names) {
    std::string why;
    auto lib = platform::Library::open(n, false, &why);
    if (!lib)
#ifdef _WIN32
      throw std::runtime_error("recording an MP4 needs FFmpeg's " + n.windows[0] +
                               " beside vklab.exe (vklab-windows-x64.zip carries it) or on PATH: " + why +
                               "; a folder/ records PNGs without it");
#else
      throw std::runtime_error("recording needs " + n.posix[0] +
                               " (Debian: libavcodec59, libavformat59, libavutil57, libswscale6): " + why);
#endif
    libs.push_back(*lib);
  }
  auto find = [&](const char* name) {
    for (const auto& lib : libs)
      if (void* f = lib.symbol(name)) return f;
    throw std::runtime_error(std::string("recording: FFmpeg has no ") + name);
  };
  Ffmpeg f;
#define VKLAB_FFMPEG_LOAD(name) f.name = reinterpret_cast<decltype(f.name)>(find(#name));
  VKLAB_FFMPEG_FUNCTIONS(VKLAB_FFMPEG_LOAD)
#undef VKLAB_FFMPEG_LOAD
  f.av_log_set_level(kFfmpegLogLevel);
  return f;  // the libraries stay loaded for the process's life
}

}  // namespace

const Ffmpeg& ffmpeg() {
  static const Ffmpeg f = load();  // a throw leaves it to be tried again next time
  return f;
}

}  // namespace render
