#include "app/window.h"

#include "app/modes.h"
#include "app/plot_files.h"
#include "compute/gpu/bandwidth.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

namespace {

const float kBackground[4] = {0.09f, 0.09f, 0.11f, 1.0f};
constexpr size_t kHistory = 240;

// Swapchain images: colour, one layer.
void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access) {
  gpu::image_barrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, from, to, src_stage, src_access, dst_stage, dst_access);
}

// ImGui draws in a render pass that loads what the lab drew.
VkRenderPass make_ui_pass(VkDevice device, VkFormat format) {
  VkAttachmentDescription att{};
  att.format = format;
  att.samples = VK_SAMPLE_COUNT_1_BIT;
  att.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  att.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  att.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  att.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  att.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription sub{};
  sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  sub.colorAttachmentCount = 1;
  sub.pColorAttachments = &ref;
  VkSubpassDependency deps[2] = {
      {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
      {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0, 0}};
  VkRenderPassCreateInfo rp{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rp.attachmentCount = 1;
  rp.pAttachments = &att;
  rp.subpassCount = 1;
  rp.pSubpasses = &sub;
  rp.dependencyCount = 2;
  rp.pDependencies = deps;
  VkRenderPass pass;
  VK_CHECK(vkCreateRenderPass(device, &rp, nullptr, &pass));
  return pass;
}

}  // namespace

int run_window(const Options& o) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    std::fprintf(stderr,
                 "vklab: no display found (DISPLAY is not set); use vklab --headless --lab NAME --steps N "
                 "--capture out.png to run without a window\n");
    return 1;
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "vklab: cannot open the display '%s'; use vklab --headless to run without a window\n",
                 display ? display : "");
    return 1;
  }
  int code;
  {
    Window w(o);
    code = w.run();
  }
  glfwTerminate();
  return code;
}

Window::Window(const Options& o) : Window(Empty{}) {
  opts_ = o;
  vsync_ = o.vsync;
  select_tab_ = o.tab;
  settings_ = load_settings();
  bench_quick_ = settings_.bench_quick;
  lab_ = lab_from_options(o, o.lab);
  if (!glfwVulkanSupported()) throw std::runtime_error("GLFW finds no Vulkan loader");
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: --size is in the monitor's scaled pixels
  window_ = {glfwCreateWindow(int(o.width), int(o.height), "vklab", nullptr, nullptr), glfwDestroyWindow};
  if (!window_) throw std::runtime_error("could not create a window");
  glfwSetWindowUserPointer(window_, this);
  glfwSetFramebufferSizeCallback(
      window_, [](GLFWwindow* w, int, int) { static_cast<Window*>(glfwGetWindowUserPointer(w))->resized_ = true; });
  glfwSetWindowContentScaleCallback(window_, [](GLFWwindow* w, float x, float y) {  // moved to another monitor
    auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
    if (self->settings_.ui_scale == 0) self->pending_scale_ = std::clamp(std::max(x, y), 0.75f, 3.0f);
  });

  auto co = context_options(o);
  uint32_t n = 0;
  const char** exts = glfwGetRequiredInstanceExtensions(&n);
  for (uint32_t i = 0; i < n; ++i) co.instance_extensions.push_back(exts[i]);
  co.swapchain = true;
  co.can_present = [](VkInstance inst, VkPhysicalDevice pd, uint32_t family) {
    return glfwGetPhysicalDevicePresentationSupport(inst, pd, family) == GLFW_TRUE;
  };
  ctx_ = std::make_unique<gpu::Context>(co);
  ctx_->renderdoc.pending = o.renderdoc_captures;
  peaks_ = gpu::find_cached_peaks(peaks_path(), ctx_->info).value_or(gpu::Peaks{});
  saxpy_gbps_ = peaks_.saxpy_gbps;
  // A bench's context asks for the same instance extensions: volk's table is process-wide and
  // reloaded with each instance, so the window's surface functions must stay in it.
  bench_context_ = context_options(o);
  bench_context_.instance_extensions = co.instance_extensions;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_CHECK(glfwCreateWindowSurface(ctx_->instance, window_, nullptr, &surface));
  surface_ = {surface, [inst = ctx_->instance](VkSurfaceKHR s) { vkDestroySurfaceKHR(inst, s, nullptr); }};
  VkBool32 present = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(ctx_->physical, ctx_->queue_family, surface_, &present);
  if (!present) throw std::runtime_error(ctx_->info.name + " cannot present to this window");

  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(ctx_->physical, surface_, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(ctx_->physical, surface_, &count, formats.data());
  for (auto& f : formats)
    if (f.format == render::kColorFormat && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) format_ = f.format;
  if (format_ == VK_FORMAT_UNDEFINED)
    throw std::runtime_error("the window surface does not offer B8G8R8A8_UNORM, which vklab draws in");

  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = ctx_->queue_family;
  VkDevice d = ctx_->device;
  VkCommandPool pool = VK_NULL_HANDLE;
  VK_CHECK(vkCreateCommandPool(d, &pi, nullptr, &pool));
  pool_ = {pool, [d](VkCommandPool p) { vkDestroyCommandPool(d, p, nullptr); }};
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VK_CHECK(vkAllocateCommandBuffers(ctx_->device, &ai, &cmd_));
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VK_CHECK(vkCreateFence(d, &fi, nullptr, &fence));
  fence_ = {fence, [d](VkFence f) { vkDestroyFence(d, f, nullptr); }};
  VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSemaphore(d, &si, nullptr, &sem));
  acquired_ = {sem, [d](VkSemaphore s) { vkDestroySemaphore(d, s, nullptr); }};

  ui_pass_ = {make_ui_pass(d, format_), [d](VkRenderPass p) { vkDestroyRenderPass(d, p, nullptr); }};

  sc_ = std::make_unique<render::Swapchain>(*ctx_, surface_, format_, ui_pass_);
  create_swapchain();
  create_imgui();
  prof_ = std::make_unique<gpu::Profiler>(*ctx_);
  history_ = std::make_unique<History>(*ctx_);
  legend_ = std::make_unique<render::LegendView>(*ctx_);
  legend_on_ = o.legend && settings_.legend;
  build_lab(*lab_);
  if (!opts_.record.empty()) {  // --record: from the first frame to the last
    record_fps_ = opts_.record_fps;
    start_recording(opts_.record);
    if (!error_.empty()) throw std::runtime_error(error_);
  }
}

Window::~Window() {
  if (ctx_) vkDeviceWaitIdle(ctx_->device);
  lab_.reset();
  history_.reset();
  legend_.reset();
  prof_.reset();
  capture_buffer_.reset();
  job_.reset();  // cancels a running bench and waits for it
  if (imgui_backend_) ImGui_ImplVulkan_Shutdown();
  if (imgui_ready_) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  // The owned handles go before the count of validation messages is said.
  acquired_.reset(), fence_.reset(), pool_.reset(), imgui_pool_.reset(), sc_.reset(), ui_pass_.reset();
  surface_.reset();
  if (ctx_) report_validation(opts_, *ctx_);
}

void Window::create_swapchain() {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  uint32_t images = sc_->recreate({uint32_t(fw), uint32_t(fh)}, vsync_);
  if (imgui_ready_) ImGui_ImplVulkan_SetMinImageCount(images);
  resized_ = false;
}

void Window::create_imgui() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is the program's, not a file's
  // Ours first: ImGui's backend keeps it and calls it from its own key callback.
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
    static_cast<Window*>(glfwGetWindowUserPointer(w))->on_key(key, action);
  });
  ImGui_ImplGlfw_InitForVulkan(window_, true);
  imgui_ready_ = true;
  ImGui_ImplVulkan_LoadFunctions(
      [](const char* name, void* inst) { return vkGetInstanceProcAddr(*static_cast<VkInstance*>(inst), name); },
      &ctx_->instance);
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64}};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpi.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  dpi.maxSets = 64;
  dpi.poolSizeCount = 1;
  dpi.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VK_CHECK(vkCreateDescriptorPool(ctx_->device, &dpi, nullptr, &pool));
  imgui_pool_ = {pool, [d = ctx_->device](VkDescriptorPool p) { vkDestroyDescriptorPool(d, p, nullptr); }};
  float scale = settings_.ui_scale > 0 ? settings_.ui_scale : monitor_scale();
  panel_width_ = (settings_.panel_width > 0 ? settings_.panel_width : 420.0f) * scale;
  apply_ui_scale(scale);
}

int Window::run() {
  while (!glfwWindowShouldClose(window_)) {
    if (!frame()) break;
    if (opts_.frames && frame_count_ >= opts_.frames) break;
  }
  vkDeviceWaitIdle(ctx_->device);
  if (submitted_) finish_capture();
  stop_recording();
  if (bench_running()) {  // closed: a bench stops after its row; a scripted run (--frames) lets it finish
    if (!opts_.frames) job_->cancel();
    while (bench_running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  poll_bench();
  std::printf("window: %llu frames, lab %s, %llu steps%s\n", (unsigned long long)frame_count_, lab_->name().c_str(),
              (unsigned long long)lab_->steps_done(), paused_ ? ", paused" : "");
  std::printf("window: ui scale %.2f, sidebar %.0f px, picture %u px, transport bar %.0f px\n", ui_scale_,
              sidebar_ ? sidebar_width() : 0.0f, lab_frame(0).area.extent.width, transport_width_);
  if (!opts_.capture.empty() && last_capture_.empty()) {
    std::fprintf(stderr, "vklab: no frame was captured\n");
    return 1;
  }
  return 0;
}

bool Window::frame() {
  glfwPollEvents();
  if (opts_.exercise) exercise(frame_count_);
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  if (fw == 0 || fh == 0) {  // minimised: nothing to draw into
    if (opts_.frames) ++frame_count_;
    glfwWaitEventsTimeout(0.05);
    return true;
  }

  collect_frame();
  poll_bench();
  if (record_toggle_) toggle_recording();
  if (auto plot = take_plot_picture_request()) write_plot_picture(*plot);
  if (pending_scale_ > 0) {
    apply_ui_scale(pending_scale_);
    pending_scale_ = 0;
  }
  if (lab_->params().rebuild_pending) apply_rebuild();
  if (resized_) {
    vkDeviceWaitIdle(ctx_->device);
    create_swapchain();
  }

  uint32_t index = 0;
  VkResult r = vkAcquireNextImageKHR(ctx_->device, sc_->handle(), UINT64_MAX, acquired_, VK_NULL_HANDLE, &index);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    resized_ = true;
    return true;
  }
  if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);

  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  inject_keys();
  ImGui::NewFrame();
  keys();
  panels();
  ImGui::Render();

  forward_pointer(index, fw, fh);

  bool last = opts_.frames && frame_count_ + 1 >= opts_.frames;
  if (last && !opts_.capture.empty()) {
    capture_requested_ = true;
    capture_path_ = opts_.capture;
  }
  bool captured = ctx_->renderdoc.begin(ctx_->instance, lab_->name() + " frame " + std::to_string(frame_count_));
  VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd_, &bi));
  record(cmd_, index);
  VK_CHECK(vkEndCommandBuffer(cmd_));

  submit_and_present(index);
  if (captured) ctx_->renderdoc.end(ctx_->instance);
  ++frame_count_;
  return true;
}

// The frame in flight: waits for it, then reads back its timings, capture and the lab's problem.
void Window::collect_frame() {
  if (!submitted_) return;
  VK_CHECK(vkWaitForFences(ctx_->device, 1, fence_.ptr(), VK_TRUE, UINT64_MAX));
  submitted_ = false;
  timings_ = prof_->resolve();
  spans_ = prof_->spans();
  float total = 0;
  for (auto& t : timings_) total += float(t.ms);
  gpu_ms_history_.push_back(total);
  if (gpu_ms_history_.size() > kHistory) gpu_ms_history_.pop_front();
  finish_capture();
  // The GPU is idle for the lab here (labs read back in problem()). A watchdog's stop is said
  // once on stderr (the panel shows it until Restart) and pauses the transport: the step count
  // stays where the lab stopped and the step-back ring keeps the frames before it, so a class
  // can go back to where the trouble first shows.
  if (auto p = lab_->problem(); p != said_problem_) {
    if (!p.empty()) {
      std::fprintf(stderr, "vklab: stopped: %s\n", p.c_str());
      paused_ = true, step_requests_ = 0;
    }
    said_problem_ = p;
  }
}

// The mouse, in framebuffer pixels, to the lab (unless ImGui has it).
void Window::forward_pointer(uint32_t index, int fw, int fh) {
  double mx, my;
  glfwGetCursorPos(window_, &mx, &my);
  int ww, wh;
  glfwGetWindowSize(window_, &ww, &wh);
  mouse_x_ = float(mx) * float(fw) / float(std::max(ww, 1));  // the inspector's cell under the mouse
  mouse_y_ = float(my) * float(fh) / float(std::max(wh, 1));
  if (ImGui::GetIO().WantCaptureMouse) return;
  Pointer p;
  p.x = float(mx) * float(fw) / float(std::max(ww, 1));
  p.y = float(my) * float(fh) / float(std::max(wh, 1));
  p.left = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  p.right = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  p.wheel = ImGui::GetIO().MouseWheel;
  lab_->pointer(p, lab_frame(index));
}

// Submits the recorded frame (waiting on the acquired image) and presents it.
void Window::submit_and_present(uint32_t index) {
  VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.waitSemaphoreCount = 1;
  si.pWaitSemaphores = acquired_.ptr();
  si.pWaitDstStageMask = &wait_stage;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd_;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &sc_->rendered()[index];
  VK_CHECK(vkResetFences(ctx_->device, 1, fence_.ptr()));
  VK_CHECK(vkQueueSubmit(ctx_->queue, 1, &si, fence_));
  submitted_ = true;

  VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  pi.waitSemaphoreCount = 1;
  pi.pWaitSemaphores = &sc_->rendered()[index];
  pi.swapchainCount = 1;
  pi.pSwapchains = &sc_->handle();
  pi.pImageIndices = &index;
  VkResult r = vkQueuePresentKHR(ctx_->queue, &pi);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
    resized_ = true;
  else
    VK_CHECK(r);
}

float Window::sidebar_width() const { return std::min(panel_width_, float(sc_->extent().width / 2)); }

render::Frame Window::lab_frame(uint32_t index) const {
  // The panel is a sidebar on the left; the lab's picture takes the rest.
  auto side = sidebar_ ? uint32_t(sidebar_width()) : 0u;
  VkRect2D area{{int32_t(side), 0}, {sc_->extent().width - side, sc_->extent().height}};
  return {sc_->images()[index], sc_->views()[index], sc_->depth().view(), sc_->extent(), area};
}

void Window::record(VkCommandBuffer cmd, uint32_t index) {
  prof_->begin_frame(cmd);
  uint32_t steps = steps_this_frame();
  gpu::Allocator::Owner owner(ctx_->allocator(), lab_->name());  // what the lab makes as it runs is its own
  lab_->step(cmd, *prof_, steps);
  if (steps > 0 || history_->size() == 0) history_->record(cmd, *lab_);

  render::Frame f = lab_frame(index);
  lab_->prepare_draw(cmd, *prof_, f);
  VkImage image = sc_->images()[index];
  // The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT; the transition chains to it.
  image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  render::begin_rendering(cmd, f, kBackground);
  lab_->draw(cmd, *prof_, f);
  if (legend_on_) legend_->draw(cmd, f, lab_->legend(), 1.5f * ui_scale_);
  render::end_rendering(cmd);

  VkRenderPassBeginInfo rb{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  rb.renderPass = ui_pass_;
  rb.framebuffer = sc_->framebuffers()[index];
  rb.renderArea = {{0, 0}, sc_->extent()};
  vkCmdBeginRenderPass(cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
  ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
  vkCmdEndRenderPass(cmd);

  if (capture_requested_ || recorder_) {  // the swapchain image, UI included, copied before it is presented
    VkDeviceSize bytes = VkDeviceSize(sc_->extent().width) * sc_->extent().height * 4;
    if (!capture_buffer_ || capture_buffer_->size() != bytes)
      capture_buffer_ = std::make_unique<gpu::Buffer>(*ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {sc_->extent().width, sc_->extent().height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, capture_buffer_->handle(), 1, &region);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                  VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_NONE, 0);
    capture_png_ = capture_requested_;
    capture_requested_ = false;
    capture_recorded_ = true;
    capture_extent_ = sc_->extent();
  } else {
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_NONE, 0);
  }
}

// A plot's PNG button: the plot as a picture of its own at the window's size, with its CSV,
// in plots/ (between frames: the legend's buffer is free).
void Window::write_plot_picture(const PlotData& plot) {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  auto png = std::filesystem::path("plots") / (plot.spec.name + "-" + stamp + ".png");
  try {
    write_plot_files(*ctx_, *legend_, plot, lab_->legend_title(), sc_->extent().width, sc_->extent().height, png);
    auto shown = std::filesystem::absolute(png);
    plot_written(plot.spec.name, shown);
    std::printf("plotted %s\n", shown.c_str());
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void Window::finish_capture() {
  if (!capture_recorded_) return;
  capture_recorded_ = false;
  try {
    auto rgba = render::bgra_to_rgba(static_cast<const uint8_t*>(capture_buffer_->mapped()), capture_extent_.width,
                                     capture_extent_.height);
    if (recorder_) record_frame(rgba);
    if (!capture_png_) return;
    render::write_png(capture_path_, capture_extent_.width, capture_extent_.height, rgba,
                      capture_manifest(*lab_, *ctx_));
    last_capture_ = std::filesystem::absolute(capture_path_).string();
    std::printf("captured %s\n", last_capture_.c_str());
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}
