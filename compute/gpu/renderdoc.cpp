#include "compute/gpu/renderdoc.h"

#include <renderdoc_app.h>

#include "compute/io/platform.h"

#include <cstdio>

namespace gpu {

namespace {
RENDERDOC_API_1_6_0* api(void* p) { return static_cast<RENDERDOC_API_1_6_0*>(p); }
}  // namespace

RenderDoc::RenderDoc() {
  // RTLD_NOLOAD: only a library RenderDoc has already injected; never start capturing ourselves.
  auto lib = platform::Library::open({{"librenderdoc.so"}, {"renderdoc.dll"}}, true);
  if (!lib) return;
  auto get_api = reinterpret_cast<pRENDERDOC_GetAPI>(lib->symbol("RENDERDOC_GetAPI"));
  void* p = nullptr;
  if (get_api && get_api(eRENDERDOC_API_Version_1_6_0, &p) == 1) api_ = p;
}

RenderDoc& RenderDoc::get() {
  static RenderDoc r;
  return r;
}

const char* RenderDoc::how_to_attach() {
  return "not running under RenderDoc: start vklab from RenderDoc (qrenderdoc: File > Launch Application) "
         "or as `renderdoccmd capture -w -c captures/NAME vklab ...` (Debian's renderdoccmd package), then capture";
}

void RenderDoc::begin(VkInstance instance, const std::string& title) {
  if (!api_ || capturing_) return;
  api(api_)->StartFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr);
  api(api_)->SetCaptureTitle(title.c_str());
  capturing_ = true;
}

std::string RenderDoc::end(VkInstance instance) {
  if (!api_ || !capturing_) return "";
  capturing_ = false;
  if (api(api_)->EndFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr) != 1) return "";
  uint32_t n = api(api_)->GetNumCaptures();
  uint32_t length = 0;
  if (n == 0 || api(api_)->GetCapture(n - 1, nullptr, &length, nullptr) != 1) return "";
  std::string path(length, '\0');
  api(api_)->GetCapture(n - 1, path.data(), &length, nullptr);
  path.resize(path.find('\0') == std::string::npos ? path.size() : path.find('\0'));
  return path;
}

void RenderDoc::open_replay_ui() {
  if (!api_) return;
  if (api(api_)->IsTargetControlConnected())
    api(api_)->ShowReplayUI();
  else
    api(api_)->LaunchReplayUI(1, nullptr);
}

bool CaptureRequests::begin(VkInstance instance, const std::string& title) {
  if (pending <= 0) return false;
  auto& rd = RenderDoc::get();
  if (!rd.attached()) {
    last_message = RenderDoc::how_to_attach();
    std::fprintf(stderr, "vklab: renderdoc: %s\n", last_message.c_str());
    pending = 0;
    return false;
  }
  rd.begin(instance, title);
  return true;
}

void CaptureRequests::end(VkInstance instance) {
  auto& rd = RenderDoc::get();
  if (!rd.capturing()) return;
  --pending;
  last_path = rd.end(instance);
  last_message = last_path.empty() ? "RenderDoc wrote no capture" : "captured " + last_path;
  std::fprintf(stderr, "vklab: renderdoc: %s\n", last_message.c_str());
}

}  // namespace gpu
