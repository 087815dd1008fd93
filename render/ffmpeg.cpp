#include "render/ffmpeg.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace render {

namespace {

Ffmpeg load() {
  void* libs[4] = {};
  const char* names[4] = {"libavutil.so.57", "libswscale.so.6", "libavcodec.so.59", "libavformat.so.59"};
  for (int i = 0; i < 4; ++i)
    if (!(libs[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)))
      throw std::runtime_error(std::string("recording needs ") + names[i] + " (Debian: libavcodec59, libavformat59, " +
                               "libavutil57, libswscale6): " + dlerror());
  auto find = [&](const char* name) {
    for (void* lib : libs)
      if (void* f = dlsym(lib, name)) return f;
    throw std::runtime_error(std::string("recording: FFmpeg has no ") + name);
  };
  Ffmpeg f;
#define VKLAB_FFMPEG_LOAD(name) f.name = reinterpret_cast<decltype(f.name)>(find(#name));
  VKLAB_FFMPEG_FUNCTIONS(VKLAB_FFMPEG_LOAD)
#undef VKLAB_FFMPEG_LOAD
  f.av_log_set_level(AV_LOG_ERROR);  // libx264's statistics are not the user's business
  return f;                          // the libraries stay loaded for the process's life
}

}  // namespace

const Ffmpeg& ffmpeg() {
  static const Ffmpeg f = load();  // a throw leaves it to be tried again next time
  return f;
}

}  // namespace render
