// The operating system's services the program uses, each in one place, for POSIX (Linux) and
// Windows: the executable's own path, the process's id, whether standard error is a terminal,
// local time, the memory in use, running a program (bench --runs), shared libraries loaded at run
// time (OpenBLAS, FFmpeg, RenderDoc), the user's folders and the console's character set.
// Everything else goes through the C++ standard library.
//
// Text is UTF-8 everywhere: on Windows the executable declares UTF-8 its code page (app/vklab.manifest,
// Windows 10 version 1903 and later), so its arguments and the A functions speak it. A path made
// from a std::string or written as one does not: libstdc++ on Windows converts those by the C
// runtime's locale, which cannot be UTF-8 (msvcrt); utf8_path and utf8 convert as UTF-8 everywhere.
#pragma once
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platform {

// The running executable's path; empty where the system cannot say.
std::filesystem::path executable();
long process_id();
bool stderr_is_terminal();  // the bench's progress bar draws only there
// The text of the last failed system call's error (Windows: GetLastError's; POSIX: errno's).
std::string system_error();
std::tm local_time(std::time_t t);

// The process's resident memory, and what the C heap has handed out and not had back (the
// program's and the driver's); 0 where the system cannot say.
size_t resident_bytes();
size_t heap_bytes();

// Runs `args` (the program's path first, then its arguments, each passed as it is: no shell) and
// waits for it: its exit code, 128 + the signal that ended it (POSIX), or -1 where it could not start.
int run_process(const std::vector<std::string>& args);

std::filesystem::path utf8_path(std::string_view utf8);
std::string utf8(const std::filesystem::path& path);

// Sets the console up for what the program writes (Windows: UTF-8 output; POSIX: nothing). Returns
// a line to show the user where the system cannot give the program UTF-8 (a Windows before 10
// version 1903, where names outside the local code page will not open), else "".
std::string prepare_console();

// The system's folders for the user's files; empty where the system has none (or, for Pictures
// and Videos on POSIX, none that vklab uses: a terminal's user finds captures in the working folder).
//   POSIX: Settings $XDG_CONFIG_HOME or ~/.config, Cache $XDG_CACHE_HOME or ~/.cache, Documents ~.
//   Windows: the known folders Roaming AppData, Local AppData, Pictures, Videos and Documents.
enum class KnownFolder { Settings, Cache, Pictures, Videos, Documents };
std::filesystem::path known_folder(KnownFolder which);

// A shared library's file names on each system, tried in order.
struct LibraryNames {
  std::vector<std::string> posix, windows;
};

// A shared library, loaded for the rest of the process's life (never unloaded).
class Library {
 public:
  // The first of `names` that loads; with `already_loaded`, only one the process already holds
  // (a tool that injected itself, as RenderDoc does), never loading one. `error`: why none did.
  static std::optional<Library> open(const LibraryNames& names, bool already_loaded = false,
                                     std::string* error = nullptr);
  void* symbol(const char* name) const;  // nullptr where the library has none
  const std::string& name() const { return name_; }

 private:
  void* handle_ = nullptr;
  std::string name_;
};

}  // namespace platform
