// FFmpeg 5's libraries (Debian's libavcodec59, libavformat59, libavutil57, libswscale6; on
// Windows avcodec-59.dll and the rest, which vklab-windows-x64.zip carries) loaded at run time,
// on the first recording: vklab itself starts without them (the GPU machine has none), and a
// recording without them fails with one line saying which is missing.
#pragma once
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace render {

// FFmpeg's log level while vklab records: its errors only (libx264's statistics are not the
// user's business).
constexpr int kFfmpegLogLevel = AV_LOG_ERROR;

struct Ffmpeg {
// One function a line:
// clang-format off
#define VKLAB_FFMPEG_FUNCTIONS(X) \
  X(avformat_alloc_output_context2) \
  X(avformat_new_stream) \
  X(avio_open) \
  X(avformat_write_header) \
  X(av_interleaved_write_frame) \
  X(av_write_trailer) \
  X(avio_closep) \
  X(avformat_free_context) \
  X(avformat_open_input) \
  X(avformat_find_stream_info) \
  X(av_read_frame) \
  X(avformat_close_input) \
  X(avcodec_find_encoder_by_name) \
  X(avcodec_alloc_context3) \
  X(avcodec_open2) \
  X(avcodec_parameters_from_context) \
  X(avcodec_send_frame) \
  X(avcodec_receive_packet) \
  X(avcodec_free_context) \
  X(av_packet_alloc) \
  X(av_packet_free) \
  X(av_packet_rescale_ts) \
  X(av_packet_unref) \
  X(avcodec_get_name) \
  X(av_frame_alloc) \
  X(av_frame_free) \
  X(av_frame_get_buffer) \
  X(av_frame_make_writable) \
  X(av_opt_set) \
  X(av_strerror) \
  X(sws_getContext) \
  X(sws_scale) \
  X(sws_freeContext) \
  X(av_log_set_level)
// clang-format on
#define VKLAB_FFMPEG_MEMBER(name) decltype(&::name) name = nullptr;
  VKLAB_FFMPEG_FUNCTIONS(VKLAB_FFMPEG_MEMBER)
#undef VKLAB_FFMPEG_MEMBER
};

// The loaded libraries; std::runtime_error naming the library or function that is missing.
const Ffmpeg& ffmpeg();

}  // namespace render
