// RenderDoc's in-application API (renderdoc_app.h, Debian's librenderdoc-dev). RenderDoc loads
// its library into vklab when it launches it (qrenderdoc's "Launch Application", or
// `renderdoccmd capture vklab ...`); vklab can then bracket frames, steps or one application
// of a bench row as a capture, so a compute-only pass can be inspected. Without RenderDoc,
// asking for a capture says how to get one and nothing else changes.
#pragma once
#include "compute/gpu/vk.h"

#include <string>

namespace gpu {

class RenderDoc {
 public:
  static RenderDoc& get();  // looks for an already loaded librenderdoc.so once; never loads it
  bool attached() const { return api_ != nullptr; }
  static const char* how_to_attach();  // the message shown when not attached

  // Brackets everything submitted between the two on `instance`'s devices. `title` names the
  // capture in RenderDoc. end() returns the capture file's path ("" when none was written).
  void begin(VkInstance instance, const std::string& title);
  std::string end(VkInstance instance);
  bool capturing() const { return capturing_; }
  void open_replay_ui();  // RenderDoc's UI on the captures, connected to this process

 private:
  RenderDoc();
  void* api_ = nullptr;  // RENDERDOC_API_1_6_0*
  bool capturing_ = false;
};

// Captures wanted but not yet made: `--renderdoc-capture N` and the window's button set it,
// the frame loop, the headless steps and the bench's timed rows take one each.
struct CaptureRequests {
  int pending = 0;
  std::string last_path, last_message;
  // Starts a capture if one is pending and RenderDoc is attached; says why not otherwise.
  bool begin(VkInstance instance, const std::string& title);
  // Ends the capture begin() started (if any) and records where it went.
  void end(VkInstance instance);
};

}  // namespace gpu
