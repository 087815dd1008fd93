// compute/io/platform: the system's services as the program uses them, on this system (the
// same probes built for Windows run under Wine: tests/windows/).
#include "compute/io/platform.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

TEST(Platform, TheExecutableTheProcessAndTheClock) {
  auto exe = platform::executable();
  EXPECT_EQ(exe.filename(), "vklab_tests") << exe;
  EXPECT_TRUE(std::filesystem::exists(exe)) << exe;
  EXPECT_EQ(platform::process_id(), long(::getpid()));
  const std::time_t t = 1764460800;  // 2025-11-30 00:00:00 UTC
  std::tm want{};
  ::localtime_r(&t, &want);
  const std::tm got = platform::local_time(t);
  EXPECT_EQ(got.tm_year, want.tm_year);
  EXPECT_EQ(got.tm_yday, want.tm_yday);
  EXPECT_EQ(got.tm_hour, want.tm_hour);
  EXPECT_EQ(got.tm_min, want.tm_min);
}

TEST(Platform, MemoryInUseGrowsWithWhatIsHeld) {
  EXPECT_GT(platform::resident_bytes(), size_t(1) << 20);
  const size_t before = platform::heap_bytes(), block = size_t(64) << 20;
  auto held = std::make_unique<char[]>(block);
  for (size_t i = 0; i < block; i += 4096) held[i] = char(i);  // touched: resident too
  EXPECT_GE(platform::heap_bytes(), before + block);
  held.reset();
  EXPECT_LT(platform::heap_bytes(), before + block / 2);
}

TEST(Platform, SharedLibrariesLoadOrSayWhyNot) {
  auto libm = platform::Library::open({{"libnot-there.so.9", "libm.so.6"}, {"msvcrt.dll"}});
  ASSERT_TRUE(libm);
  EXPECT_EQ(libm->name(), "libm.so.6") << "the first name that loads";
  auto cosine = reinterpret_cast<double (*)(double)>(libm->symbol("cos"));
  ASSERT_NE(cosine, nullptr);
  EXPECT_EQ(cosine(0.0), 1.0);
  EXPECT_EQ(libm->symbol("no_such_function_here"), nullptr);
  std::string why;
  EXPECT_FALSE(platform::Library::open({{"libnot-there.so.9"}, {}}, false, &why));
  EXPECT_NE(why.find("libnot-there.so.9"), std::string::npos) << why;
  // already_loaded: a library the process holds (libc), never one it would have to load
  EXPECT_TRUE(platform::Library::open({{"libc.so.6"}, {}}, true));
  EXPECT_FALSE(platform::Library::open({{"libz.so.1"}, {}}, true)) << "loaded only if the process held it";
}

// A program run with its arguments as they are (no shell between): blanks, quotes and a
// backslash arrive whole; the exit code comes back, a signal as 128 + its number.
TEST(Platform, RunProcessPassesEveryArgumentWhole) {
  const std::string odd = "a 'b\" c\\ $HOME";
  EXPECT_EQ(platform::run_process({"/bin/sh", "-c", "test \"$1\" = \"$2\"", "sh", odd, odd}), 0);
  EXPECT_EQ(platform::run_process({"/bin/sh", "-c", "test \"$1\" = 'a'", "sh", odd}), 1);
  EXPECT_EQ(platform::run_process({"/bin/sh", "-c", "exit 7"}), 7);
  EXPECT_EQ(platform::run_process({"/bin/sh", "-c", "kill -TERM $$"}), 128 + 15);
  EXPECT_EQ(platform::run_process({"/no/such/program"}), -1);
}

// Names are UTF-8 on every system: a path from UTF-8 text and back, a file of that name written
// and listed under it; the console needs nothing here.
TEST(Platform, NamesAreUtf8BothWays) {
  const std::string name = "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.txt";  // "été 日本.txt"
  EXPECT_EQ(platform::utf8(platform::utf8_path(name)), name);
  const auto dir = std::filesystem::temp_directory_path() / ("vklab-utf8-" + std::to_string(platform::process_id()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / platform::utf8_path(name)) << "x"; }
  std::vector<std::string> listed;
  for (auto& e : std::filesystem::directory_iterator(dir)) listed.push_back(platform::utf8(e.path().filename()));
  EXPECT_EQ(listed, std::vector<std::string>{name});
  std::filesystem::remove_all(dir);
  EXPECT_EQ(platform::prepare_console(), "");
}
