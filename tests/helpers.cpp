#include "tests/helpers.h"

#include <stb_image.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

// The tests never read or write the user's settings file (a chosen UI scale would change
// the window's pictures): the app and the processes it starts look in a folder of their own.
static const bool kOwnSettings = [] {
  auto dir = std::filesystem::temp_directory_path() / ("vklab-test-settings-" + std::to_string(::getpid()));
  return setenv("VKLAB_CONFIG_DIR", dir.c_str(), 1) == 0;
}();

gpu::Context& test_context() {
  static gpu::Context ctx([] {
    gpu::ContextOptions o;
    // VKLAB_TEST_VALIDATION=0: for a machine without the layers (the suite's runs keep them on)
    const char* v = std::getenv("VKLAB_TEST_VALIDATION");
    o.validation = !(v && std::string(v) == "0");
    if (const char* d = std::getenv("VKLAB_TEST_DEVICE")) o.device = d;
    return o;
  }());
  return ctx;
}

gpu::ContextOptions validated_options() {
  gpu::ContextOptions co;
  co.validation = true;
  co.print_messages = false;
  return co;
}

std::vector<float> random_floats(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("vklab-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

ProcessResult run_process(const std::string& command) {
  auto err_path = std::filesystem::temp_directory_path() /
                  ("vklab-test-err-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  ProcessResult r;
  FILE* p = ::popen((command + " 2>" + err_path.string()).c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(err_path);
  std::stringstream s;
  s << in.rdbuf();
  r.err = s.str();
  std::filesystem::remove(err_path);
  return r;
}

// VKLAB_EXE in the environment overrides the build's path (e.g. on the GPU machine).
std::string vklab_exe() {
  const char* e = std::getenv("VKLAB_EXE");
  return e && *e ? e : VKLAB_EXE;
}

std::string vklab_args(const std::string& args) { return vklab_exe() + " " + args; }

Picture load_picture(const std::filesystem::path& png) {
  Picture pic;
  int n = 0;
  unsigned char* px = stbi_load(png.c_str(), &pic.w, &pic.h, &n, 4);
  if (!px) return {};
  pic.rgba.assign(px, px + size_t(pic.w) * size_t(pic.h) * 4);
  stbi_image_free(px);
  return pic;
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
