// compute/io/platform.cpp's Windows side, built with MinGW-w64 and run under Wine by
// platform_under_wine.sh: prints what each service returns, one `name value` a line.
#include "compute/io/platform.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

int main() {
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
  return 0;
}
