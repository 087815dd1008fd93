// The Windows side of compute/io/platform.cpp, interrupt.cpp (console control events), input.cpp
// (what is read and what refused), output.cpp (whole files and folders, replaced in place) and
// user_dirs.cpp (the user's folders), with vklab.exe's manifest (UTF-8 as the code page), built
// with MinGW-w64 and run under Wine by
// platform_under_wine.sh (in a terminal of its own, which console control events need): writes
// what each returns to probe.txt, one `name value` a line.
#include "compute/io/input.h"
#include "compute/io/interrupt.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"
#include "compute/io/user_dirs.h"

#include <windows.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

int main(int argc, char** argv) {
  // run_process's quoting: the probe run again with awkward arguments, which it checks and exits 7
  const char* odd = "a 'b\" c\\ \\\" d\\";
  if (argc == 4 && std::string(argv[1]) == "--echo") return std::string(argv[2]) == odd && argv[3][0] == 0 ? 7 : 3;
  const std::string accented = "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac";  // "été 日本" in UTF-8
  if (argc == 3 && std::string(argv[1]) == "--utf8") return argv[2] == accented ? 8 : 3;
  if (!std::freopen("probe.txt", "w", stdout)) return 2;
  std::printf("console_note %s\n", platform::prepare_console().empty() ? "none" : "said");
  std::printf("code_page %u\n", GetACP());
  std::printf("executable %s\n", platform::executable().string().c_str());
  std::printf("pid %ld\n", platform::process_id());
  std::printf("year %d\n", platform::local_time(1764460800).tm_year + 1900);  // 2025-11-30 UTC
  std::printf("resident %zu\n", platform::resident_bytes());
  const size_t before = platform::heap_bytes();
  auto held = std::make_unique<char[]>(size_t(8) << 20);
  held[0] = 1;
  std::printf("heap_grew %d\n", platform::heap_bytes() >= before + (size_t(8) << 20) ? 1 : 0);
  auto k32 = platform::Library::open({{}, {"not-there.dll", "kernel32.dll"}});
  std::printf("library %s\n", k32 ? k32->name().c_str() : "-");
  std::printf("symbol %d\n", k32 && k32->symbol("GetTickCount") ? 1 : 0);
  std::string why;
  std::printf("missing %d\n", platform::Library::open({{}, {"not-there.dll"}}, false, &why) ? 1 : 0);
  std::printf("why %s\n", why.c_str());
  std::printf("held %d\n", platform::Library::open({{}, {"kernel32.dll"}}, true) ? 1 : 0);
  // read_input: a file whole, one over the limit and a folder refused with their reasons
  const auto dir = std::filesystem::temp_directory_path() / "vklab-probe";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.txt", std::ios::binary) << "twelve bytes";
  std::printf("read %s\n", io::read_input(dir / "a.txt", 64).c_str());
  for (auto [what, path, limit] : {std::tuple{"too_big", dir / "a.txt", uint64_t(4)},
                                   {"folder", dir, uint64_t(64)},
                                   {"absent", dir / "none.txt", uint64_t(64)}})
    try {
      io::read_input(path, limit);
      std::printf("%s read\n", what);
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      std::printf("%s %s\n", what, m.substr(m.find(": ") + 2).c_str());
    }
  // write_file twice over the same name, an OutputFile, an OutputFolder made and then replaced
  // (no atomic exchange: the two-rename path), and nothing left beside them
  const auto out = dir / "out";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  io::write_file(out / "f.txt", "first");
  io::write_file(out / "f.txt", "second, longer");
  std::printf("write_file %s\n", io::read_input(out / "f.txt", 64).c_str());
  {
    io::OutputFile f(out / "g.txt");
    std::ofstream(f.temporary(), std::ios::binary) << "whole";
    f.commit();
  }
  std::printf("output_file %s\n", io::read_input(out / "g.txt", 64).c_str());
  for (const char* text : {"one", "two"}) {
    io::OutputFolder d(out / "dump");
    std::ofstream(d.folder() / "a.txt", std::ios::binary) << text;
    d.commit();
  }
  std::printf("output_folder %s\n", io::read_input(out / "dump" / "a.txt", 64).c_str());
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(out)) entries += e.path().filename().string()[0] != '.' ? 1 : 100;
  std::printf("entries %d\n", entries);  // f.txt, g.txt, dump: no temporary left
  try {
    io::write_file(out / "no-such-folder" / "h.txt", "x");
    std::printf("unwritable written\n");
  } catch (const std::runtime_error& e) {
    std::printf("unwritable %s\n", std::strstr(e.what(), "cannot be written") ? "refused" : e.what());
  }
  std::printf("run_process %d\n", platform::run_process({platform::executable().string(), "--echo", odd, ""}));
  std::printf("run_missing %d\n", platform::run_process({"C:\\no\\such.exe"}));
  // UTF-8 throughout: an argument, a file's name as the system stores it (UTF-16), read back
  std::printf("run_utf8 %d\n", platform::run_process({platform::executable().string(), "--utf8", accented}));
  const auto named = out / platform::utf8_path(accented + ".txt");
  io::write_file(named, accented);
  const bool stored =
      GetFileAttributesW((out.wstring() + L"\\\u00e9t\u00e9 \u65e5\u672c.txt").c_str()) != INVALID_FILE_ATTRIBUTES;
  std::printf("utf8_name %d %d\n", stored ? 1 : 0, io::read_input(named, 64) == accented ? 1 : 0);
  // the user's folders: the system's known folders, the override honoured
  for (auto [what, d] : {std::pair{"settings", io::UserDir::Settings},
                         {"cache", io::UserDir::Cache},
                         {"captures", io::UserDir::Captures},
                         {"recordings", io::UserDir::Recordings},
                         {"exercises", io::UserDir::Exercises}})
    std::printf("%s %s\n", what, io::user_dir(d).string().c_str());
  _putenv_s("VKLAB_CONFIG_DIR", "D:\\elsewhere");
  std::printf("settings_override %s\n", io::user_dir(io::UserDir::Settings).string().c_str());
  // Ctrl-C while a run watches: recorded as SIGINT, the process goes on
  io::install_interrupt_handlers();
  {
    io::InterruptWatch watch;
    GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0);
    for (int i = 0; i < 200 && !io::interrupted(); ++i) Sleep(10);
    std::printf("interrupted %s\n", io::interrupted() ? io::signal_name(io::interrupted()) : "no");
  }
  std::fclose(stdout);
  return 0;
}
