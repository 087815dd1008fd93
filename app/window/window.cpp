// The window's life: GLFW, the surface, the swapchain and ImGui made in order and freed in
// reverse; the frame loop (wait for the last frame, apply what changed between frames, record
// the session's frame and the UI over it, present); the sidebar that holds the tabs.
#include "app/window/window.h"
#include "compute/io/interrupt.h"
#include "compute/io/platform.h"

#include "app/core/settings.h"
#include "app/widgets/plot.h"
#include "app/widgets/plot_files.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

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
  select_tab_ = o.tab;
  if (!o.exercise.empty()) {  // --exercise: its tab first (a problem is said there)
    exercise_tab_.open(o.exercise, o.exercise_file);
    if (o.tab.empty()) select_tab_ = "Exercise";
  }
  view_.vsync = o.vsync;
  presenting_ = o.present;
  view_.settings = load_settings();
  bench_tab_ = BenchTab(view_.settings.bench_quick);
  picture_tab_ = PictureTab(o.record_fps, o.with_interface);
  auto lab = lab_from_options(o, o.lab);  // bad parameters fail before a window opens
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
    if (self->view_.settings.ui_scale == 0) self->view_.pending_scale = std::clamp(std::max(x, y), 0.75f, 3.0f);
  });

  open_gpu(std::move(lab), context_options(o), false);
  ctx_for_bench_.simulate_lost_at = 0;
  bench_ = std::make_unique<BenchRunner>(ctx_for_bench_);
  create_imgui();
  build_first();
  view_.legend = o.legend && view_.settings.legend;
  if (!opts_.record.empty()) {  // --record: from the first frame to the last
    picture_tab_.start_recording(*session_, platform::utf8_path(opts_.record), lab_frame(0).area, sc_->extent());
    if (!session_->error.empty()) throw std::runtime_error(session_->error);
  }
}

// The lab's first build, on a worker while the window draws its progress (a big input file takes
// seconds): closing the window or Esc stops it where the lab can, and vklab ends; a build that
// fails ends it with the reason, as bad parameters do.
void Window::build_first() {
  build_ = std::make_unique<BuildJob>(*session_, BuildJob::Kind::First);
  while (!build_->ended(std::chrono::milliseconds(16))) {
    glfwPollEvents();
    if (glfwWindowShouldClose(window_)) build_->progress().cancel();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    if (fw == 0 || fh == 0) continue;
    collect_frame();
    if (resized_) {
      session_->ctx().wait_idle();
      create_swapchain();
    }
    building_frame();
  }
  collect_frame();
  auto job = std::move(build_);
  try {
    job->finish();
  } catch (const BuildCancelled&) {
    throw std::runtime_error("the window was closed while " + session_->lab().name() + " was being built");
  }
}

// The session (its device and lab) and what the window makes on its device: the surface, the
// frame's objects and the swapchain. ImGui's Vulkan side follows (apply_ui_scale).
void Window::open_gpu(std::unique_ptr<Lab> lab, gpu::ContextOptions co, bool build_now) {
  uint32_t n = 0;
  const char** exts = glfwGetRequiredInstanceExtensions(&n);
  for (uint32_t i = 0; i < n; ++i) co.instance_extensions.push_back(exts[i]);
  co.swapchain = true;
  co.can_present = [](VkInstance inst, VkPhysicalDevice pd, uint32_t family) {
    return glfwGetPhysicalDevicePresentationSupport(inst, pd, family) == GLFW_TRUE;
  };
  // A bench's context asks for the same instance extensions: volk's table is process-wide and
  // reloaded with each instance, so the window's surface functions must stay in it.
  ctx_for_bench_ = context_options(opts_);
  ctx_for_bench_.instance_extensions = co.instance_extensions;
  session_ = std::make_unique<Session>(co, std::move(lab), Session::Parts{true, true, build_now});
  auto& ctx = session_->ctx();
  ctx.renderdoc.pending = opts_.renderdoc_captures;
  session_->peaks = gpu::find_cached_peaks(peaks_path(), ctx.info).value_or(gpu::Peaks{});
  create_surface();
  create_frame_objects();
  sc_ = std::make_unique<render::Swapchain>(ctx, surface_, format_, ui_pass_);
  create_swapchain();
  create_imgui_pool();
}

// Everything made on the session's device, in reverse order (Vulkan allows destroying the
// objects of a lost device).
void Window::close_gpu() {
  session_->ctx().wait_idle();  // returns at once on a lost device
  exercise_tab_.release_gpu(*session_);
  picture_tab_.stop_recording(*session_);
  frame_copy_.reset();
  if (imgui_backend_) ImGui_ImplVulkan_Shutdown();
  imgui_backend_ = false;
  acquired_.reset(), fence_.reset(), pool_.reset(), imgui_pool_.reset(), sc_.reset(), ui_pass_.reset();
  surface_.reset();
  session_.reset();
  submitted_ = false;
}

// A lost device: the lab's parameters are saved, the device is made anew and the lab rebuilt
// from them; its state is lost and the run waits, paused, with the panel saying so. False if
// no device could be made (vklab then ends as for any GPU failure).
bool Window::recover(const std::string& why) {
  std::fprintf(stderr, "vklab: GPU failure: %s\n", why.c_str());
  std::string file = session_->rescue(why);
  auto lab = make_lab(session_->lab().name());
  for (const Param& p : session_->lab().params().all()) lab->params().set(p.name, p.text());
  uint64_t steps = session_->lab().steps_done();
  try {
    bench_.reset();  // cancels a running bench (its own device) and waits for it
    close_gpu();
    auto co = context_options(opts_);
    co.simulate_lost_at = 0;  // a test's fault happens once
    open_gpu(std::move(lab), co, true);
    bench_ = std::make_unique<BenchRunner>(ctx_for_bench_);
    ImGui_ImplVulkan_LoadFunctions(
        [](const char* name, void* inst) { return vkGetInstanceProcAddr(*static_cast<VkInstance*>(inst), name); },
        &session_->ctx().instance);
    apply_ui_scale(view_.ui_scale);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: the GPU could not be made anew: %s\n", e.what());
    return false;
  }
  session_->transport.paused = true;
  session_->error = why + ". vklab made the device anew and rebuilt the lab from its parameters" +
                    (file.empty() ? std::string() : " (saved in " + file + ")") + "; the state of its " +
                    std::to_string(steps) + " steps is lost. Space runs it again.";
  std::fprintf(stderr, "vklab: the device was made anew; the lab restarts, paused\n");
  return true;
}

Window::~Window() {
  if (session_) session_->ctx().wait_idle();
  frame_copy_.reset();
  bench_.reset();  // cancels a running bench and waits for it
  if (imgui_backend_) ImGui_ImplVulkan_Shutdown();
  if (imgui_ready_) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  // The owned handles go before the count of validation messages is said.
  acquired_.reset(), fence_.reset(), pool_.reset(), imgui_pool_.reset(), sc_.reset(), ui_pass_.reset();
  surface_.reset();
  if (session_) report_validation(opts_, session_->ctx());
}

void Window::create_surface() {
  auto& ctx = session_->ctx();
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_CHECK(glfwCreateWindowSurface(ctx.instance, window_, nullptr, &surface));
  surface_ = {surface, [inst = ctx.instance](VkSurfaceKHR s) { vkDestroySurfaceKHR(inst, s, nullptr); }};
  VkBool32 present = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physical, ctx.queue_family, surface_, &present);
  if (!present) throw std::runtime_error(ctx.info.name + " cannot present to this window");
  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, surface_, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, surface_, &count, formats.data());
  for (auto& f : formats)
    if (f.format == render::kColorFormat && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) format_ = f.format;
  if (format_ == VK_FORMAT_UNDEFINED)
    throw std::runtime_error("the window surface does not offer B8G8R8A8_UNORM, which vklab draws in");
}

void Window::create_frame_objects() {
  auto& ctx = session_->ctx();
  VkDevice d = ctx.device;
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = ctx.queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  VK_CHECK(vkCreateCommandPool(d, &pi, nullptr, &pool));
  pool_ = {pool, [d](VkCommandPool p) { vkDestroyCommandPool(d, p, nullptr); }};
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VK_CHECK(vkAllocateCommandBuffers(d, &ai, &cmd_));
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VK_CHECK(vkCreateFence(d, &fi, nullptr, &fence));
  fence_ = {fence, [d](VkFence f) { vkDestroyFence(d, f, nullptr); }};
  VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSemaphore(d, &si, nullptr, &sem));
  acquired_ = {sem, [d](VkSemaphore s) { vkDestroySemaphore(d, s, nullptr); }};
  ui_pass_ = {make_ui_pass(d, format_), [d](VkRenderPass p) { vkDestroyRenderPass(d, p, nullptr); }};
}

void Window::create_swapchain() {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  uint32_t images = sc_->recreate({uint32_t(fw), uint32_t(fh)}, view_.vsync);
  if (imgui_backend_) ImGui_ImplVulkan_SetMinImageCount(images);
  resized_ = false;
}

void Window::create_imgui_pool() {
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64}};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpi.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  dpi.maxSets = 64;
  dpi.poolSizeCount = 1;
  dpi.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDevice d = session_->ctx().device;
  VK_CHECK(vkCreateDescriptorPool(d, &dpi, nullptr, &pool));
  imgui_pool_ = {pool, [d](VkDescriptorPool p) { vkDestroyDescriptorPool(d, p, nullptr); }};
}

void Window::create_imgui() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is the program's, not a file's
  // ImGui's backend without its callbacks: ours hand it the events (keys through a queue that
  // keeps every tap, Window::feed_imgui_keys) and queue the window's own key presses.
  ImGui_ImplGlfw_InitForVulkan(window_, false);
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
    self->on_key(key, action);
    self->imgui_keys_.push_back({key, scancode, action, mods});
  });
  glfwSetCharCallback(window_, ImGui_ImplGlfw_CharCallback);  // ImGui queues characters itself
  glfwSetMouseButtonCallback(window_, ImGui_ImplGlfw_MouseButtonCallback);
  glfwSetScrollCallback(window_, ImGui_ImplGlfw_ScrollCallback);
  imgui_ready_ = true;
  ImGui_ImplVulkan_LoadFunctions(
      [](const char* name, void* inst) { return vkGetInstanceProcAddr(*static_cast<VkInstance*>(inst), name); },
      &session_->ctx().instance);
  float scale = view_.settings.ui_scale > 0 ? view_.settings.ui_scale : monitor_scale();
  panel_width_ = (view_.settings.panel_width > 0 ? view_.settings.panel_width : 420.0f) * scale;
  apply_ui_scale(scale);
}

int Window::run() {
  if (opts_.soak_s) soak_ = std::make_unique<Soak>(opts_.soak_s);
  io::InterruptWatch watch;  // Ctrl-C or SIGTERM: closes the window as its button does (interrupt.h)
  while (!glfwWindowShouldClose(window_) && !io::interrupted()) {
    try {
      if (!frame()) break;
    } catch (const gpu::GpuFailure& e) {
      if (e.result != VK_ERROR_DEVICE_LOST || !recover(e.what())) gpu_failed(e.what());
    }
    if (opts_.frames && frame_count_ >= opts_.frames) break;
  }
  if (build_) {  // closed while the lab was being rebuilt: it stops where it can, keeps what it had
    build_->progress().cancel();
    build_->ended(std::chrono::hours(1));
    build_->finish();
    build_.reset();
  }
  Session& s = *session_;
  s.ctx().wait_idle();
  if (submitted_ && picture_tab_.frame_pending())
    picture_tab_.take_frame(s, static_cast<const uint8_t*>(frame_copy_->mapped()));
  picture_tab_.stop_recording(s);
  bench_->stop(opts_.frames != 0);  // closed: a bench stops after its row; a scripted run (--frames) lets it finish
  bench_->poll(s, frame_count_, opts_.validate);
  std::printf("window: %llu frames, lab %s, %llu steps%s\n", (unsigned long long)frame_count_, s.lab().name().c_str(),
              (unsigned long long)s.lab().steps_done(), s.transport.paused ? ", paused" : "");
  std::printf("window: ui scale %.2f, sidebar %.0f px, picture %u px, transport bar %.0f px, tab names %s\n",
              view_.ui_scale, sidebar_ && !presenting_ ? sidebar_width() : 0.0f, lab_frame(0).area.extent.width,
              transport_.width(), tabs_brief_ ? "short" : "full");
  if (const KernelEditor::View* e = exercise_tab_.editor_view())
    std::printf("editor: caret at line %d, column %d of %d lines; lines %d to %d in view\n", e->caret_line,
                e->caret_column, e->lines, e->first_line, e->last_line);
  if (int sig = io::interrupted()) {
    std::fprintf(stderr, "vklab: interrupted by %s: the window closed%s\n", io::signal_name(sig),
                 opts_.record.empty() ? "" : ", the recording complete up to there");
    return 128 + sig;
  }
  if (soak_ && soak_->report(s) != 0) return 1;
  if (!opts_.capture.empty() && picture_tab_.last_capture().empty()) {
    std::fprintf(stderr, "vklab: no frame was captured\n");
    return 1;
  }
  return 0;
}

bool Window::frame() {
  glfwPollEvents();
  if (opts_.shake && !build_) shake(frame_count_);
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  if (fw == 0 || fh == 0) {  // minimised: nothing to draw into
    if (opts_.frames) ++frame_count_;
    glfwWaitEventsTimeout(0.05);
    return true;
  }
  collect_frame();
  if (soak_ && !build_) {  // between frames, where the window itself loads presets and rebuilds
    auto now = std::chrono::steady_clock::now();
    bool more = soak_->frame(*session_, std::chrono::duration<double, std::milli>(now - soak_frame_).count());
    soak_frame_ = now;
    if (!more) return false;
  }
  between_frames();
  if (build_) return building_frame();

  auto& ctx = session_->ctx();
  uint32_t index = 0;
  if (!acquire(index)) return true;

  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  inject_keys();
  feed_imgui_keys();
  ImGui::NewFrame();
  keys();
  if (sidebar_ && !presenting_) sidebar();
  if (pane_width() > 0) editor_pane();
  session_->transport.apply(*session_);  // the bar's Restart and step back, asked last frame

  bool last = opts_.frames && frame_count_ + 1 >= opts_.frames;
  if (last && !opts_.capture.empty()) picture_tab_.request_capture(platform::utf8_path(opts_.capture));
  bool captured = ctx.renderdoc.begin(ctx.instance, session_->lab().name() + " frame " + std::to_string(frame_count_));
  begin_commands();
  // The steps first, then the bar: it says the step the picture and its legend show.
  session_->record_steps(cmd_, steps_this_frame());
  if (overlay_shown()) transport_.draw(*session_, lab_frame(0).area, bench_->running(), presenting_);
  if (transport_.take_present_click()) set_presenting(!presenting_);
  ImGui::Render();
  forward_pointer(index, fw, fh);
  record(cmd_, index, true);
  frame_had_lab_ = true;
  VK_CHECK(vkEndCommandBuffer(cmd_));

  submit_and_present(index);
  if (captured) ctx.renderdoc.end(ctx.instance);
  ++frame_count_;
  return true;
}

// The next swapchain image into `index`; false when the swapchain is out of date (remade
// between frames).
bool Window::acquire(uint32_t& index) {
  VkResult r =
      vkAcquireNextImageKHR(session_->ctx().device, sc_->handle(), UINT64_MAX, acquired_, VK_NULL_HANDLE, &index);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    resized_ = true;
    return false;
  }
  if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);
  return true;
}

void Window::begin_commands() {  // the frame's command buffer, recorded afresh
  VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd_, &bi));
}

// A frame while the lab is rebuilt on the worker (build_job.h): the window answers and draws
// what the build has done so far in the sidebar's place, over the background, and touches
// nothing of the lab's. It is not counted among --frames, nor are keys injected meanwhile.
bool Window::building_frame() {
  uint32_t index = 0;
  if (!acquire(index)) return true;
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  feed_imgui_keys();
  ImGui::NewFrame();
  std::vector<int> presses;
  presses.swap(key_presses_);  // the lab's keys wait for nothing: a key pressed meanwhile is dropped
  if (std::find(presses.begin(), presses.end(), GLFW_KEY_ESCAPE) != presses.end()) build_->progress().cancel();
  build_progress_panel();
  ImGui::Render();
  begin_commands();
  record(cmd_, index, false);
  VK_CHECK(vkEndCommandBuffer(cmd_));
  submit_and_present(index);
  return true;
}

// Where the sidebar stands: what is being built, the phases it has finished with their
// seconds, the time so far, and Cancel (Esc) where the lab can stop and keep what it had.
void Window::build_progress_panel() {
  float width = sidebar_ && !presenting_ ? sidebar_width() : std::min(480.0f, float(sc_->extent().width));
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({width, float(sc_->extent().height)});
  ImGui::Begin("Building", nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
  ImGui::TextWrapped("Building %s", build_->what().c_str());
  ImGui::Text("%.1f s so far", build_->elapsed_s());
  ImGui::ProgressBar(-float(ImGui::GetTime()), {-1, 0}, "working");
  auto phases = build_->progress().phases();
  if (!phases.empty()) ImGui::TextDisabled("done so far:");
  for (auto& [phase, seconds] : phases) {
    ImGui::TextUnformatted(phase.c_str());
    ImGui::SameLine(ImGui::GetFontSize() * 12);
    ImGui::Text("%6.2f s", seconds);
  }
  if (build_->progress().cancelled()) {
    ImGui::TextWrapped("Cancelling: the build stops at the end of this phase.");
  } else if (build_->progress().reports()) {
    if (ImGui::Button("Cancel (Esc)")) build_->progress().cancel();
    ImGui::SameLine();
    ImGui::TextDisabled(build_->first() ? "and vklab ends" : "the lab keeps what it had");
  }
  ImGui::End();
}

// What changes the lab, the swapchain or ImGui's fonts, between two frames (never while a
// panel that shows it is being drawn).
void Window::between_frames() {
  Session& s = *session_;
  if (build_) {  // only the swapchain changes while the lab is rebuilt beside the frames
    if (build_->ended()) {
      build_->finish();
      build_.reset();
    } else {
      if (resized_) {
        s.ctx().wait_idle();
        create_swapchain();
      }
      return;
    }
  }
  bench_->poll(s, frame_count_, opts_.validate);
  picture_tab_.between_frames(s, lab_frame(0).area, sc_->extent());
  if (auto plot = take_plot_picture_request()) write_plot_picture(*plot);
  if (auto table = take_table_picture_request()) write_table_picture(*table);
  if (view_.save) save_view_settings();
  if (view_.pending_scale > 0) {
    apply_ui_scale(view_.pending_scale);
    view_.pending_scale = 0;
  }
  if (s.lab().params().rebuild_pending) {
    build_ = std::make_unique<BuildJob>(s);
    if (build_->ended(std::chrono::milliseconds(150))) {  // a quick change never shows the progress
      build_->finish();
      build_.reset();
    } else {
      return;
    }
  }
  exercise_tab_.between_frames(s);
  if (view_.vsync_changed) view_.vsync_changed = false, resized_ = true;
  if (resized_) {
    s.ctx().wait_idle();
    create_swapchain();
  }
}

// The frame in flight: waits for it, then reads back its timings, its copy and the lab's
// problem (a watchdog's stop is said once on stderr; the panel shows it until Restart).
void Window::collect_frame() {
  if (!submitted_) return;
  Session& s = *session_;
  try {
    s.ctx().wait(fence_, "a frame");
  } catch (const gpu::GpuFailure& e) {
    if (e.result != VK_TIMEOUT) throw;
    wait_out(e.what());
  }
  submitted_ = false;
  if (!std::exchange(frame_had_lab_, false)) return;  // a frame drawn while the lab was rebuilt
  std::string stopped = s.collect_frame();
  if (picture_tab_.frame_pending()) picture_tab_.take_frame(s, static_cast<const uint8_t*>(frame_copy_->mapped()));
  if (!stopped.empty()) std::fprintf(stderr, "vklab: stopped: %s\n", stopped.c_str());
}

// A frame past --gpu-timeout: the window keeps answering (its title says what happens) while
// the GPU may still finish; when it does, the run is paused and the panel says why. Closing the
// window meanwhile saves the parameters and ends vklab (code 4); a lost device ends it too.
void Window::wait_out(const std::string& why) {
  Session& s = *session_;
  auto start = std::chrono::steady_clock::now();
  std::fprintf(stderr, "vklab: %s; still waiting (close the window to give up)\n", why.c_str());
  while (!s.ctx().finished(fence_, std::chrono::milliseconds(250))) {
    glfwPollEvents();
    if (glfwWindowShouldClose(window_)) gpu_failed(why);
    auto waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string title = "vklab: the GPU is not responding (" + std::to_string(int(waited)) + " s more)";
    glfwSetWindowTitle(window_, title.c_str());
  }
  glfwSetWindowTitle(window_, "vklab");
  s.transport.paused = true;
  s.error = why + "; it finished later: the run is paused (Space resumes it)";
}

void Window::gpu_failed(const std::string& why) {
  std::fprintf(stderr, "vklab: GPU failure: %s\n", why.c_str());
  std::string file = session_->rescue(why);
  if (!file.empty())
    std::fprintf(stderr, "vklab: the run's parameters are in %s (--preset %s runs it again)\n", file.c_str(),
                 file.c_str());
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(4);  // the device's objects are left to the process's end (gpu::Context::failed)
}

// The mouse, in framebuffer pixels, to the lab (unless ImGui has it).
void Window::forward_pointer(uint32_t index, int fw, int fh) {
  double mx, my;
  glfwGetCursorPos(window_, &mx, &my);
  int ww, wh;
  glfwGetWindowSize(window_, &ww, &wh);
  float x = float(mx) * float(fw) / float(std::max(ww, 1)), y = float(my) * float(fh) / float(std::max(wh, 1));
  if (x != mouse_x_ || y != mouse_y_) pointer_moved_at_ = glfwGetTime();  // presentation mode's bar comes back
  mouse_x_ = x, mouse_y_ = y;                                             // the inspector's cell under the mouse
  bool hide = presenting_ && !overlay_shown();
  if (hide != cursor_hidden_) glfwSetInputMode(window_, GLFW_CURSOR, hide ? GLFW_CURSOR_HIDDEN : GLFW_CURSOR_NORMAL);
  cursor_hidden_ = hide;
  if (ImGui::GetIO().WantCaptureMouse) return;
  Pointer p;
  p.x = mouse_x_, p.y = mouse_y_;
  p.left = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  p.right = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  p.wheel = ImGui::GetIO().MouseWheel;
  session_->lab().pointer(p, session_->lab_frame(lab_frame(index), legend_scale()));
}

// Submits the recorded frame (waiting on the acquired image) and presents it.
void Window::submit_and_present(uint32_t index) {
  auto& ctx = session_->ctx();
  VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.waitSemaphoreCount = 1;
  si.pWaitSemaphores = acquired_.ptr();
  si.pWaitDstStageMask = &wait_stage;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd_;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &sc_->rendered()[index];
  VK_CHECK(vkResetFences(ctx.device, 1, fence_.ptr()));
  auto queue = ctx.lock_queue();  // a lab may be building beside the frames (build_job.h)
  VK_CHECK(vkQueueSubmit(ctx.queue, 1, &si, fence_));
  submitted_ = true;

  VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  pi.waitSemaphoreCount = 1;
  pi.pWaitSemaphores = &sc_->rendered()[index];
  pi.swapchainCount = 1;
  pi.pSwapchains = &sc_->handle();
  pi.pImageIndices = &index;
  VkResult r = vkQueuePresentKHR(ctx.queue, &pi);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
    resized_ = true;
  else
    VK_CHECK(r);
}

float Window::sidebar_width() const { return std::min(panel_width_, float(sc_->extent().width / 2)); }

// 45 % of the window by default, dragged between 30 and 60 %, the picture keeping at least 160 px;
// shown while an exercise is open or the lab asks for it.
float Window::pane_width() const {
  if (presenting_ || (!exercise_tab_.pane_shown() && !session_->lab().wants_editor_pane())) return 0;
  float w = float(sc_->extent().width), side = sidebar_ && !presenting_ ? sidebar_width() : 0;
  return std::floor(std::max(0.0f, std::min(pane_share_ * w, w - side - 160)));
}

// The editor pane, a window the height of the frame beside the sidebar: the exercise's kernel,
// else the lab's own text (a kernel the user writes in the lab).
void Window::editor_pane() {
  float h = ImGui::GetIO().DisplaySize.y, w = float(sc_->extent().width);
  float x = sidebar_ && !presenting_ ? sidebar_width() : 0;
  ImGui::SetNextWindowPos({x, 0});
  ImGui::SetNextWindowSizeConstraints({0.3f * w, h}, {0.6f * w, h});
  ImGui::SetNextWindowSize({pane_width(), h}, ImGuiCond_Always);
  ImGui::Begin("kernel editor pane", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                   ImGuiWindowFlags_NoScrollbar);
  if (exercise_tab_.pane_shown())
    exercise_tab_.draw_pane(*session_);
  else
    session_->lab().editor_pane();
  if (ImGui::GetWindowWidth() != pane_width()) pane_share_ = ImGui::GetWindowWidth() / w;  // dragged
  ImGui::End();
}

// The sidebar is on the left, the editor pane beside it; the lab's picture takes the rest.
render::Frame Window::lab_frame(uint32_t index) const {
  auto side = (sidebar_ && !presenting_ ? uint32_t(sidebar_width()) : 0u) + uint32_t(pane_width());
  VkRect2D area{{int32_t(side), 0}, {sc_->extent().width - side, sc_->extent().height}};
  return {sc_->images()[index], sc_->views()[index], sc_->depth().view(), sc_->extent(), area};
}

uint32_t Window::steps_this_frame() {
  // A bench or sweep runs on its own device: the lab waits so the two do not share the GPU.
  if (bench_->running()) return 0;
  Transport& t = session_->transport;
  uint32_t steps = t.paused ? t.step_requests : session_->lab().steps_per_frame();
  t.step_requests = 0;
  return steps;
}

// The session's picture, ImGui over it, and the copy a capture or the recorder asked for (the
// steps were recorded before the interface was built).
void Window::record(VkCommandBuffer cmd, uint32_t index, bool lab) {
  render::Frame f = lab_frame(index);
  VkImage image = sc_->images()[index];
  // The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT; the transition chains to it.
  image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  if (lab) {
    session_->record_picture(cmd, f, legend_scale());
  } else {  // the lab is being rebuilt: the background alone
    render::begin_rendering(cmd, f, render::kBackground);
    render::end_rendering(cmd);
  }
  // A capture or recording of the picture alone is copied before the interface is drawn over it:
  // the same pixels a headless run of that size gives.
  const bool copy = lab && picture_tab_.wants_frame(), with_ui = picture_tab_.with_interface();
  if (copy && !with_ui) copy_frame(cmd, image, f.area, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);

  VkRenderPassBeginInfo rb{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  rb.renderPass = ui_pass_;
  rb.framebuffer = sc_->framebuffers()[index];
  rb.renderArea = {{0, 0}, sc_->extent()};
  vkCmdBeginRenderPass(cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
  ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
  vkCmdEndRenderPass(cmd);

  if (copy && with_ui) {
    copy_frame(cmd, image, {{0, 0}, sc_->extent()}, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  } else {
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_NONE, 0);
  }
}

// `region` of the swapchain image copied into host memory before it is presented; the image is
// left in `after` (colour attachment, for the interface still to come, or present).
void Window::copy_frame(VkCommandBuffer cmd, VkImage image, VkRect2D region, VkImageLayout after) {
  VkDeviceSize bytes = VkDeviceSize(region.extent.width) * region.extent.height * 4;
  if (!frame_copy_ || frame_copy_->size() != bytes)
    frame_copy_ = std::make_unique<gpu::Buffer>(session_->ctx(), bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageOffset = {region.offset.x, region.offset.y, 0};
  copy.imageExtent = {region.extent.width, region.extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, frame_copy_->handle(), 1, &copy);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
               VK_ACCESS_2_HOST_READ_BIT);
  if (after == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR)
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, after, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                  VK_PIPELINE_STAGE_2_NONE, 0);
  else  // the interface's render pass loads and writes it next
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, after, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  picture_tab_.frame_copied(region.extent);
}

bool Window::overlay_shown() const { return !presenting_ || glfwGetTime() - pointer_moved_at_ < 2.5; }

// The sidebar: a window the height of the frame, its width dragged by its right edge (at most
// half the window, at any UI scale: the picture always keeps the other half), holding the tabs.
void Window::sidebar() {
  Session& s = *session_;
  ImGui::SetNextWindowPos({0, 0});
  float h = ImGui::GetIO().DisplaySize.y;
  float half = std::floor(ImGui::GetIO().DisplaySize.x / 2);
  float scale = view_.ui_scale;
  ImGui::SetNextWindowSizeConstraints({std::min(260 * scale, half), h}, {std::min(900 * scale, half), h});
  ImGui::SetNextWindowSize({sidebar_width(), h}, panel_resized_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  panel_resized_ = false;
  ImGui::Begin("vklab", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar);
  if (ImGui::GetWindowWidth() != sidebar_width()) panel_width_ = ImGui::GetWindowWidth();  // dragged
  ImGui::TextDisabled("%s | %s", s.ctx().info.name.c_str(), s.ctx().info.type.c_str());
  if (!s.error.empty()) {
    warning_text({1, 0.35f, 0.35f, 1}, "%s", s.error.c_str());
    if (ImGui::SmallButton("dismiss")) s.error.clear();
  }
  // The tabs' names, or where they do not all fit (a large UI scale), short ones with the full
  // name in a tooltip; past that the bar scrolls. A tab's name is never cut.
  static const std::pair<const char*, const char*> names[] = {
      {"Lab", "Lab"},      {"Timings", "Time"}, {"Picture", "Pic"}, {"Bench", "Bench"},
      {"Inspect", "Insp"}, {"Exercise", "Ex"},  {"Help", "Help"}};
  float full = 0;
  for (auto& [name, brief] : names)
    full += ImGui::CalcTextSize(name).x + 2 * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemInnerSpacing.x;
  const bool brief = full > ImGui::GetContentRegionAvail().x;
  tabs_brief_ = brief;
  if (ImGui::BeginTabBar("sidebar", ImGuiTabBarFlags_FittingPolicyScroll)) {
    auto tab = [&](const char* name, auto&& body) {
      bool chosen = select_tab_ == name;  // --tab, F1
      const char* shown = name;
      for (auto& [n, b] : names)
        if (brief && std::string(n) == name) shown = b;
      std::string label = std::string(shown) + "###" + name;  // the same tab whatever it shows
      bool open = ImGui::BeginTabItem(label.c_str(), nullptr, chosen ? ImGuiTabItemFlags_SetSelected : 0);
      if (brief && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name);
      if (open) {
        ImGui::BeginChild(name);  // scrolls under the tab bar, which stays
        body();
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
    };
    tab("Lab", [&] { lab_tab_.draw(s); });
    tab("Timings", [&] { timings_tab_.draw(s, *bench_); });
    tab("Picture", [&] { picture_tab_.draw(s, view_); });
    tab("Bench", [&] { bench_tab_.draw(s, *bench_); });
    tab("Inspect", [&] { inspect_tab_.draw(s, s.lab_frame(lab_frame(0), legend_scale()).area, mouse_x_, mouse_y_); });
    tab("Exercise", [&] { exercise_tab_.draw(s); });
    tab("Help", [&] { help_tab_.draw(s); });
    ImGui::EndTabBar();
    select_tab_.clear();
  }
  ImGui::End();
}

// A table's PNG button: the table as a picture of its own, its letters for the window's height,
// with its CSV, in plots/ (between frames: the legend's buffer is free).
void Window::write_table_picture(const TableData& table) {
  Session& s = *session_;
  auto png = timestamped_plot_path(table.name, ".png");
  try {
    write_table_files(s.ctx(), *s.legend(), table, sc_->extent().height, png);
    auto shown = std::filesystem::absolute(png);
    table_written(table.name, shown);
    std::printf("tabled %s\n", platform::utf8(shown).c_str());
  } catch (const std::exception& e) {
    s.error = e.what();
  }
}

// A plot's PNG button: the plot as a picture of its own at the window's size, with its CSV,
// in plots/ (between frames: the legend's buffer is free).
void Window::write_plot_picture(const PlotData& plot) {
  Session& s = *session_;
  auto png = timestamped_plot_path(plot.spec.name, ".png");
  try {
    write_plot_files(s.ctx(), *s.legend(), plot, s.lab().legend_title(), sc_->extent().width, sc_->extent().height,
                     png);
    auto shown = std::filesystem::absolute(png);
    plot_written(plot.spec.name, shown);
    std::printf("plotted %s\n", platform::utf8(shown).c_str());
  } catch (const std::exception& e) {
    s.error = e.what();
  }
}
