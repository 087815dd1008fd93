// The system's services behind platform.h: POSIX (Linux) and Windows, side by side.
#include "compute/io/platform.h"

#include <cstdio>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define PSAPI_VERSION 2  // GetProcessMemoryInfo from kernel32 (K32GetProcessMemoryInfo): no psapi.dll to link
#include <windows.h>
// windows.h first
#include <io.h>
#include <malloc.h>
#include <psapi.h>
#else
#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

#include <fstream>
#endif

namespace platform {

#ifdef _WIN32

std::filesystem::path executable() {
  std::wstring buf(32768, L'\0');
  DWORD n = GetModuleFileNameW(nullptr, buf.data(), DWORD(buf.size()));
  if (n == 0 || n >= buf.size()) return {};
  buf.resize(n);
  return std::filesystem::path(buf);
}

long process_id() { return long(GetCurrentProcessId()); }

bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

std::tm local_time(std::time_t t) {
  std::tm tm{};
  localtime_s(&tm, &t);
  return tm;
}

size_t resident_bytes() {
  PROCESS_MEMORY_COUNTERS c{};
  c.cb = sizeof c;
  return GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof c) ? size_t(c.WorkingSetSize) : 0;
}

size_t heap_bytes() {
  _HEAPINFO h{};
  size_t used = 0;
  while (_heapwalk(&h) == _HEAPOK)
    if (h._useflag == _USEDENTRY) used += h._size;
  return used;
}

namespace {
std::string last_error() {
  char text[512] = {};
  FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, GetLastError(), 0, text,
                 sizeof text, nullptr);
  std::string s = text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

std::optional<Library> Library::open(const LibraryNames& names, bool already_loaded, std::string* error) {
  for (const auto& n : names.windows) {
    const std::wstring wide = std::filesystem::path(n).wstring();
    HMODULE h = already_loaded ? GetModuleHandleW(wide.c_str()) : LoadLibraryW(wide.c_str());
    if (h) {
      Library lib;
      lib.handle_ = reinterpret_cast<void*>(h);
      lib.name_ = n;
      return lib;
    }
    if (error) *error = n + ": " + last_error();
  }
  return std::nullopt;
}

void* Library::symbol(const char* name) const {
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(handle_), name));
}

#else

std::filesystem::path executable() {
  std::error_code e;
  auto p = std::filesystem::read_symlink("/proc/self/exe", e);
  return e ? std::filesystem::path() : p;
}

long process_id() { return long(::getpid()); }

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) != 0; }

std::tm local_time(std::time_t t) {
  std::tm tm{};
  ::localtime_r(&t, &tm);
  return tm;
}

size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * size_t(::sysconf(_SC_PAGESIZE));
}

size_t heap_bytes() {  // glibc
  struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
}

std::optional<Library> Library::open(const LibraryNames& names, bool already_loaded, std::string* error) {
  for (const auto& n : names.posix) {
    if (void* h = ::dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL | (already_loaded ? RTLD_NOLOAD : 0))) {
      Library lib;
      lib.handle_ = h;
      lib.name_ = n;
      return lib;
    }
    if (error) {
      const char* why = ::dlerror();
      *error = why ? why : n + ": not loaded";
    }
  }
  return std::nullopt;
}

void* Library::symbol(const char* name) const { return ::dlsym(handle_, name); }

#endif

}  // namespace platform
