#include "render/recorder.h"

#include "compute/io/output.h"
#include "compute/io/platform.h"
#include "render/ffmpeg.h"
#include "render/target.h"

#include <cstdio>
#include <stdexcept>

namespace render {

namespace {

std::string av_error(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  ffmpeg().av_strerror(code, text, sizeof text);
  return text;
}

// The encoders tried in order: H.264 by libx264 (Debian's FFmpeg), H.264 by Windows' Media
// Foundation (the FFmpeg that vklab-windows-x64.zip carries), then MPEG-4 Part 2, which every
// FFmpeg has and every player plays (Wine has no H.264 encoder of its own).
struct Encoder {
  const char* name;
  const char* label;
  bool crf;  // a constant quality (libx264's crf) rather than a bit rate
};
constexpr Encoder kEncoders[] = {{"libx264", "H.264 (libx264)", true},
                                 {"h264_mf", "H.264 (Media Foundation)", false},
                                 {"mpeg4", "MPEG-4 Part 2", false}};

}  // namespace

struct Recorder::Video {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* scale = nullptr;
  std::string path;
  std::unique_ptr<io::OutputFile> file;  // written beside the target, renamed once the index is in (output.h)

  void check(int code, const char* what) const {
    if (code < 0) throw std::runtime_error(path + ": " + what + ": " + av_error(code));
  }
  // Sends `f` (nullptr: flush) and writes every packet the encoder has ready.
  void encode(AVFrame* f) {
    check(ffmpeg().avcodec_send_frame(codec, f), "encoding a frame");
    for (;;) {
      int r = ffmpeg().avcodec_receive_packet(codec, packet);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      check(r, "encoding a frame");
      ffmpeg().av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      check(ffmpeg().av_interleaved_write_frame(format, packet), "writing a frame");
    }
  }
  ~Video() {
    ffmpeg().sws_freeContext(scale);
    ffmpeg().av_packet_free(&packet);
    ffmpeg().av_frame_free(&frame);
    ffmpeg().avcodec_free_context(&codec);
    if (format && !(format->oformat->flags & AVFMT_NOFILE)) ffmpeg().avio_closep(&format->pb);
    ffmpeg().avformat_free_context(format);
  }
};

bool Recorder::is_folder(const std::filesystem::path& out) {
  std::string s = platform::utf8(out);
  return std::filesystem::is_directory(out) || (!s.empty() && s.back() == '/');
}

Recorder::Recorder(const std::filesystem::path& out, uint32_t width, uint32_t height, int fps)
    : out_(out), width_(width & ~1u), height_(height & ~1u) {
  if (width_ < 2 || height_ < 2) throw std::runtime_error(platform::utf8(out) + ": frames too small to record");
  if (fps < 1 || fps > 240) throw std::runtime_error(platform::utf8(out) + ": frame rate must be 1 to 240");
  if (is_folder(out)) {
    std::filesystem::create_directories(out);
    return;
  }
  if (out.extension() != ".mp4") throw std::runtime_error(platform::utf8(out) + ": record to FILE.mp4 or a folder/");
  ffmpeg();  // loads the libraries, or says which is missing, before anything is made
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  auto v = std::make_unique<Video>();
  v->path = platform::utf8(out);
  v->check(ffmpeg().avformat_alloc_output_context2(&v->format, nullptr, "mp4", v->path.c_str()), "no MP4 muxer");
  v->stream = ffmpeg().avformat_new_stream(v->format, nullptr);
  if (!v->stream) throw std::runtime_error(v->path + ": out of memory");
  std::string tried;
  for (const Encoder& e : kEncoders) {
    const AVCodec* codec = ffmpeg().avcodec_find_encoder_by_name(e.name);
    if (!codec) continue;
    v->codec = ffmpeg().avcodec_alloc_context3(codec);
    if (!v->codec) throw std::runtime_error(v->path + ": out of memory");
    v->codec->width = int(width_);
    v->codec->height = int(height_);
    v->codec->time_base = {1, fps};
    v->codec->framerate = {fps, 1};
    v->codec->pix_fmt = AV_PIX_FMT_YUV420P;
    v->codec->gop_size = fps;
    if (v->format->oformat->flags & AVFMT_GLOBALHEADER) v->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (e.crf) {  // libx264: a constant quality
      ffmpeg().av_opt_set(v->codec->priv_data, "preset", "veryfast", 0);
      ffmpeg().av_opt_set(v->codec->priv_data, "crf", "20", 0);
    } else {  // a bit rate: 0.15 bits a pixel a frame (1280x720 at 30 fps: 4.1 Mbit/s)
      v->codec->bit_rate = int64_t(0.15 * width_ * height_ * fps);
    }
    ffmpeg().av_log_set_level(AV_LOG_QUIET);  // an encoder that cannot open is said below, if none can
    const int r = ffmpeg().avcodec_open2(v->codec, codec, nullptr);
    ffmpeg().av_log_set_level(kFfmpegLogLevel);
    if (r >= 0) {
      encoder_ = e.label;
      break;
    }
    tried += std::string(tried.empty() ? "" : "; ") + e.name + ": " + av_error(r);
    ffmpeg().avcodec_free_context(&v->codec);
  }
  if (!v->codec)
    throw std::runtime_error(
        v->path + ": no video encoder opens in this FFmpeg" +
        (tried.empty() ? std::string(" (it has none of libx264, h264_mf, mpeg4)") : " (" + tried + ")"));
  v->check(ffmpeg().avcodec_parameters_from_context(v->stream->codecpar, v->codec), "stream parameters");
  v->stream->time_base = v->codec->time_base;
  v->file = std::make_unique<io::OutputFile>(out);
  v->check(ffmpeg().avio_open(&v->format->pb, platform::utf8(v->file->temporary()).c_str(), AVIO_FLAG_WRITE),
           "cannot write");
  v->check(ffmpeg().avformat_write_header(v->format, nullptr), "writing the MP4 header");
  v->frame = ffmpeg().av_frame_alloc();
  v->packet = ffmpeg().av_packet_alloc();
  if (!v->frame || !v->packet) throw std::runtime_error(v->path + ": out of memory");
  v->frame->format = AV_PIX_FMT_YUV420P;
  v->frame->width = int(width_);
  v->frame->height = int(height_);
  v->check(ffmpeg().av_frame_get_buffer(v->frame, 0), "frame buffer");
  v->scale = ffmpeg().sws_getContext(int(width_), int(height_), AV_PIX_FMT_RGBA, int(width_), int(height_),
                                     AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr);
  if (!v->scale) throw std::runtime_error(v->path + ": no RGBA to YUV converter");
  video_ = std::move(v);
}

Recorder::~Recorder() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: %s\n", e.what());
  }
}

void Recorder::add(const uint8_t* rgba, uint32_t stride, const std::string& manifest) {
  if (finished_) throw std::logic_error("recorder: a frame after finish()");
  if (!video_) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%06llu.png", (unsigned long long)frames_);
    std::vector<uint8_t> tight(size_t(width_) * height_ * 4);
    for (uint32_t y = 0; y < height_; ++y)
      std::copy_n(rgba + size_t(y) * stride * 4, size_t(width_) * 4, tight.data() + size_t(y) * width_ * 4);
    write_png(out_ / name, width_, height_, tight, manifest);
  } else {
    auto& v = *video_;
    v.check(ffmpeg().av_frame_make_writable(v.frame), "frame buffer");
    const uint8_t* src[1] = {rgba};
    const int src_stride[1] = {int(stride * 4)};
    ffmpeg().sws_scale(v.scale, src, src_stride, 0, int(height_), v.frame->data, v.frame->linesize);
    v.frame->pts = int64_t(frames_);
    v.encode(v.frame);
  }
  ++frames_;
}

void Recorder::finish() {
  if (finished_) return;
  finished_ = true;
  if (!video_) return;
  video_->encode(nullptr);
  video_->check(ffmpeg().av_write_trailer(video_->format), "writing the MP4 index");
  video_->check(ffmpeg().avio_closep(&video_->format->pb), "closing the file");
  video_->file->commit();
}

VideoInfo probe_video(const std::filesystem::path& path) {
  const Ffmpeg& f = ffmpeg();
  AVFormatContext* format = nullptr;
  auto fail = [&](const std::string& why) { return std::runtime_error(platform::utf8(path) + ": " + why); };
  if (f.avformat_open_input(&format, platform::utf8(path).c_str(), nullptr, nullptr) < 0)
    throw fail("cannot open as a video");
  VideoInfo info;
  try {
    if (f.avformat_find_stream_info(format, nullptr) < 0) throw fail("no stream information");
    int video = -1;
    for (unsigned i = 0; i < format->nb_streams; ++i)
      if (format->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) video = int(i);
    if (video < 0) throw fail("no video stream");
    const AVStream* st = format->streams[video];
    info.codec = f.avcodec_get_name(st->codecpar->codec_id);
    info.width = uint32_t(st->codecpar->width);
    info.height = uint32_t(st->codecpar->height);
    info.fps = st->r_frame_rate.den ? double(st->r_frame_rate.num) / st->r_frame_rate.den : 0;
    AVPacket* packet = f.av_packet_alloc();
    while (f.av_read_frame(format, packet) >= 0) {
      if (packet->stream_index == video) ++info.frames;
      f.av_packet_unref(packet);
    }
    f.av_packet_free(&packet);
  } catch (...) {
    f.avformat_close_input(&format);
    throw;
  }
  f.avformat_close_input(&format);
  return info;
}

}  // namespace render
