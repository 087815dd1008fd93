// The window's look: ImGui's Vulkan backend, the font rasterised at the UI scale (DejaVu Sans
// from Debian's fonts-dejavu-core, else ImGui's own), the scale taken from the monitor (HiDPI)
// or the Picture tab and kept in the settings file.
#include "app/window.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <filesystem>

namespace {

constexpr float kFontPixels = 15.0f;  // at scale 1
const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
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
  vkDeviceWaitIdle(ctx_->device);
  if (imgui_backend_) {
    ImGui_ImplVulkan_Shutdown();
    VK_CHECK(vkResetDescriptorPool(ctx_->device, imgui_pool_, 0));
  }
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(kFontPixels * scale);
  if (std::filesystem::exists(kFont))
    io.Fonts->AddFontFromFileTTF(kFont, cfg.SizePixels, &cfg, kGlyphs);
  else
    io.Fonts->AddFontDefault(&cfg);
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;

  ImGui_ImplVulkan_InitInfo ii{};
  ii.Instance = ctx_->instance;
  ii.PhysicalDevice = ctx_->physical;
  ii.Device = ctx_->device;
  ii.QueueFamily = ctx_->queue_family;
  ii.Queue = ctx_->queue;
  ii.DescriptorPool = imgui_pool_;
  ii.MinImageCount = 2;
  ii.ImageCount = uint32_t(sc_->images().size());
  ii.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  ii.CheckVkResultFn = check_vk;
  ImGui_ImplVulkan_Init(&ii, ui_pass_);
  imgui_backend_ = true;
  ctx_->submit_now([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
  if (ui_scale_ > 0) panel_width_ *= scale / ui_scale_, panel_resized_ = true;  // the sidebar keeps its proportions
  ui_scale_ = scale;
}

void Window::view_panel() {
  ImGui::Text("UI scale: %.2f (%s)", ui_scale_, settings_.ui_scale == 0 ? "the monitor's" : "chosen");
  float s = pending_scale_ > 0 ? pending_scale_ : ui_scale_;
  ImGui::SliderFloat("UI scale", &s, 0.75f, 3.0f, "%.2f");
  if (ImGui::IsItemDeactivatedAfterEdit()) {  // re-rasterised when the slider is let go
    settings_.ui_scale = pending_scale_ = s;
    save_view_settings();
  }
  if (ImGui::Button("Use the monitor's scale")) {
    settings_.ui_scale = 0;
    pending_scale_ = monitor_scale();
    save_view_settings();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.2f, as GLFW reports for this monitor", monitor_scale());
  if (ImGui::Checkbox("vsync", &vsync_)) resized_ = true;
  if (ImGui::Checkbox("legend in the picture", &legend_on_)) {
    settings_.legend = legend_on_;
    save_view_settings();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the lab, its step and key values, the colour bar; captures carry it");
  ImGui::TextDisabled("saved in %s", settings_path().c_str());
  if (!settings_message_.empty()) ImGui::TextWrapped("%s", settings_message_.c_str());
}

void Window::save_view_settings() {
  settings_.panel_width = panel_width_ / ui_scale_;
  settings_.bench_quick = bench_quick_;
  settings_message_ = save_settings(settings_);
}
