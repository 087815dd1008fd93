// The system's services behind platform.h: POSIX (Linux) and Windows, side by side.
#include "compute/io/platform.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef _WIN32
#define PSAPI_VERSION 2  // GetProcessMemoryInfo from kernel32 (K32GetProcessMemoryInfo): no psapi.dll to link
#include "compute/io/windows_api.h"
// windows.h first
#include <io.h>
#include <knownfolders.h>
#include <malloc.h>
#include <psapi.h>
#include <shlobj.h>
#else
#include <dlfcn.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#ifdef __SANITIZE_ADDRESS__
// from the sanitizer runtime (sanitizer/allocator_interface.h, which GCC 12 does not ship)
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

extern char** environ;
#endif

namespace platform {

std::filesystem::path utf8_path(std::string_view utf8) {
  return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

std::string utf8(const std::filesystem::path& path) {
  const std::u8string u = path.u8string();
  return std::string(u.begin(), u.end());
}

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
// One argument as the C runtime's parser reads it back (CommandLineToArgvW's rules): quoted where
// it holds a blank or a quote, a quote escaped, backslashes doubled before a quote.
std::wstring quoted(const std::string& arg) {
  const std::wstring a = utf8_path(arg).wstring();
  if (!a.empty() && a.find_first_of(L" \t\"") == std::wstring::npos) return a;
  std::wstring q = L"\"";
  size_t slashes = 0;
  for (wchar_t c : a) {
    if (c == L'\\') {
      ++slashes;
      continue;
    }
    q.append(c == L'"' ? 2 * slashes + 1 : slashes, L'\\');
    slashes = 0;
    q += c;
  }
  q.append(2 * slashes, L'\\');
  return q + L"\"";
}
}  // namespace

int run_process(const std::vector<std::string>& args) {
  if (args.empty()) return -1;
  std::wstring line;
  for (const auto& a : args) line += (line.empty() ? L"" : L" ") + quoted(a);
  STARTUPINFOW si{};
  si.cb = sizeof si;
  PROCESS_INFORMATION pi{};
  const std::wstring program = utf8_path(args[0]).wstring();
  if (!CreateProcessW(program.c_str(), line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi)) return -1;
  WaitForSingleObject(pi.hProcess, INFINITE);
  DWORD code = DWORD(-1);
  GetExitCodeProcess(pi.hProcess, &code);
  CloseHandle(pi.hThread);
  CloseHandle(pi.hProcess);
  return int(code);
}

std::string system_error() {
  char text[512] = {};
  FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, GetLastError(), 0, text,
                 sizeof text, nullptr);
  std::string s = text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string prepare_console() {
  SetConsoleOutputCP(CP_UTF8);
  SetConsoleCP(CP_UTF8);
  if (GetACP() == CP_UTF8) return "";
  return "this Windows runs vklab in code page " + std::to_string(GetACP()) +
         ", not UTF-8 (Windows 10 version 1903 and later do): files and folders named outside it will not open";
}

std::filesystem::path known_folder(KnownFolder which) {
  const KNOWNFOLDERID* ids[] = {&FOLDERID_RoamingAppData, &FOLDERID_LocalAppData, &FOLDERID_Pictures, &FOLDERID_Videos,
                                &FOLDERID_Documents};
  PWSTR path = nullptr;
  std::filesystem::path folder;
  if (SHGetKnownFolderPath(*ids[int(which)], KF_FLAG_DEFAULT, nullptr, &path) == S_OK) folder = path;
  CoTaskMemFree(path);  // also when it failed
  return folder;
}

std::optional<Library> Library::open(const LibraryNames& names, bool already_loaded, std::string* error) {
  for (const auto& n : names.windows) {
    const std::wstring wide = utf8_path(n).wstring();
    HMODULE h = already_loaded ? GetModuleHandleW(wide.c_str()) : LoadLibraryW(wide.c_str());
    if (h) {
      Library lib;
      lib.handle_ = reinterpret_cast<void*>(h);
      lib.name_ = n;
      return lib;
    }
    if (error) *error = n + ": " + system_error();
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

std::string system_error() { return std::strerror(errno); }

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

size_t heap_bytes() {
#ifdef __SANITIZE_ADDRESS__
  // AddressSanitizer's allocator replaces glibc's malloc (whose mallinfo2 then says 0)
  return __sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 m = ::mallinfo2();  // glibc
  return m.uordblks + m.hblkhd;
#endif
}

std::string prepare_console() { return ""; }

std::filesystem::path known_folder(KnownFolder which) {
  auto env = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (which == KnownFolder::Pictures || which == KnownFolder::Videos) return {};
  if (which == KnownFolder::Documents)
    return env("HOME") ? std::filesystem::path(env("HOME")) : std::filesystem::path();
  const bool settings = which == KnownFolder::Settings;
  if (const char* x = env(settings ? "XDG_CONFIG_HOME" : "XDG_CACHE_HOME")) return x;
  if (const char* h = env("HOME")) return std::filesystem::path(h) / (settings ? ".config" : ".cache");
  return {};
}

int run_process(const std::vector<std::string>& args) {
  if (args.empty()) return -1;
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
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
