// Records what a lab draws: frames (RGBA8, top row first) as an MP4 through FFmpeg's
// libavcodec/libavformat (H.264 by libx264 on Debian, by Media Foundation on Windows, else
// MPEG-4 Part 2; yuv420p, constant frame rate), or as numbered PNGs in a folder
// (frame-000000.png, ...). Sizes are cut down to even numbers for the video.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace render {

class Recorder {
 public:
  // `out`: FILE.mp4, or a folder (an existing directory or a path ending in '/').
  // Throws std::runtime_error naming the file when it cannot be opened or encoded.
  Recorder(const std::filesystem::path& out, uint32_t width, uint32_t height, int fps);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // One frame of the size given at construction (`stride` pixels a row); a PNG frame
  // carries `manifest` as its text.
  void add(const uint8_t* rgba, uint32_t stride, const std::string& manifest = "");
  void finish();  // flushes the encoder and closes the file (the destructor does it too)
  uint64_t frames() const { return frames_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  bool video() const { return bool(video_); }
  const std::string& encoder() const { return encoder_; }  // "H.264 (libx264)", ...; empty for PNGs
  static bool is_folder(const std::filesystem::path& out);

 private:
  struct Video;
  std::unique_ptr<Video> video_;
  std::filesystem::path out_;
  uint32_t width_, height_;
  uint64_t frames_ = 0;
  bool finished_ = false;
  std::string encoder_;
};

// What a video file holds, read back through libavformat (tests, and the recorder's
// own check): codec name, size, frame rate, and its video packets counted one by one.
struct VideoInfo {
  std::string codec;
  uint32_t width = 0, height = 0;
  double fps = 0;
  uint64_t frames = 0;
};
VideoInfo probe_video(const std::filesystem::path& path);

}  // namespace render
