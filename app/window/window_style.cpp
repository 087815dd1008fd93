// The window's look: ImGui's Vulkan backend, the font rasterised at the UI scale (DejaVu Sans
// from Debian's fonts-dejavu-core, else ImGui's own), the scale taken from the monitor (HiDPI)
// or the Picture tab (app/window/tabs/picture_tab.h) and kept in the settings file.
#include "app/window/window.h"
#include "compute/io/platform.h"
#include "render/text_mesh.h"

#include <cmath>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <filesystem>

namespace {

constexpr float kFontPixels = 15.0f;  // at scale 1
// Latin-1, Greek, dashes and bullets, arrows, maths: what the labs' labels and help use.
const ImWchar kGlyphs[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x2044, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};

void check_vk(VkResult r) {
  if (r < 0) gpu::throw_vk(r, "ImGui Vulkan backend", __FILE__, __LINE__);
}

}  // namespace

float Window::monitor_scale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return std::clamp(std::max(x, y), 0.75f, 3.0f);
}

// The backend's device objects and the font texture, at `scale`. Between frames only.
void Window::apply_ui_scale(float scale) {
  auto& ctx = session_->ctx();
  ctx.wait_idle();
  if (imgui_backend_) {
    ImGui_ImplVulkan_Shutdown();
    VK_CHECK(vkResetDescriptorPool(ctx.device, imgui_pool_, 0));
  }
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(kFontPixels * scale);
  try {  // the pictures' font (render/text_mesh.h: VKLAB_FONT, beside the program, the system's)
    io.Fonts->AddFontFromFileTTF(platform::utf8(render::font_path()).c_str(), cfg.SizePixels, &cfg, kGlyphs);
  } catch (const std::runtime_error&) {  // none: ImGui's own font (the pictures say why)
    io.Fonts->AddFontDefault(&cfg);
  }
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;

  ImGui_ImplVulkan_InitInfo ii{};
  ii.Instance = ctx.instance;
  ii.PhysicalDevice = ctx.physical;
  ii.Device = ctx.device;
  ii.QueueFamily = ctx.queue_family;
  ii.Queue = ctx.queue;
  ii.DescriptorPool = imgui_pool_;
  ii.MinImageCount = 2;
  ii.ImageCount = uint32_t(sc_->images().size());
  ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  ii.CheckVkResultFn = check_vk;
  ImGui_ImplVulkan_Init(&ii, ui_pass_);
  imgui_backend_ = true;
  ctx.submit_now([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
  if (view_.ui_scale > 0)
    panel_width_ *= scale / view_.ui_scale, panel_resized_ = true;  // the sidebar keeps its proportions
  view_.ui_scale = scale;
  view_.monitor_scale = monitor_scale();
}

// The Picture tab's choices and the sidebar's width, in the settings file.
void Window::save_view_settings() {
  view_.save = false;
  view_.settings.panel_width = panel_width_ / view_.ui_scale;
  view_.settings.bench_quick = bench_tab_.quick();
  view_.settings_message = save_settings(view_.settings);
}
