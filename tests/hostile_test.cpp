// The hostile corpus (tests/hostile/cases.txt): every input a hostile student, a careless user
// or a broken file would give, run through the CLI as a user would. Each must end with its exit
// code, say its one message, stay within 2 GiB of address space (RLIMIT_AS: a kernel that made
// the compiler take 5.5 GB fails here) and within 60 s. ctest label `hostile` (CI runs it).
#include "tests/helpers.h"

#include <chrono>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct HostileCase {
  std::string name, message, command;
  int exit = 0;
};

const fs::path kCorpus = kSourceRoot / "tests" / "hostile";

std::vector<HostileCase> hostile_cases() {
  std::vector<HostileCase> out;
  std::ifstream in(kCorpus / "cases.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    HostileCase c;
    std::string exit;
    std::getline(fields, c.name, '|');
    std::getline(fields, exit, '|');
    std::getline(fields, c.message, '|');
    std::getline(fields, c.command);
    c.exit = std::stoi(exit);
    out.push_back(c);
  }
  return out;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
}

class Hostile : public ::testing::TestWithParam<HostileCase> {
 protected:
  // The large and odd inputs, made once a process (make-large.sh).
  static void SetUpTestSuite() {
    large_ = scratch("hostile-large");
    auto r = run_process("bash " + (kCorpus / "make-large.sh").string() + " " + large_.string());
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(large_, ec);
  }
  static fs::path large_;
};
fs::path Hostile::large_;

TEST_P(Hostile, EndsCleanlyWithItsMessage) {
  const HostileCase& c = GetParam();
  fs::path own = scratch("hostile-" + c.name);
  std::string command = c.command;
  replace_all(command, "{vklab}", vklab_exe());
  replace_all(command, "{h}", kCorpus.string());
  replace_all(command, "{g}", large_.string());
  replace_all(command, "{t}", own.string());
  auto start = std::chrono::steady_clock::now();
  auto r = run_process("cd " + own.string() + " && ulimit -v 2097152 && timeout 60 " + command);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, c.exit) << command << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err;
  EXPECT_NE((r.out + r.err).find(c.message), std::string::npos) << "expected: " << c.message << "\nstdout:\n"
                                                                << r.out << "\nstderr:\n"
                                                                << r.err;
  int said = 0;
  std::istringstream err(r.err);
  for (std::string line; std::getline(err, line);) said += line.rfind("vklab:", 0) == 0;
  EXPECT_LE(said, 1) << "more than one message:\n" << r.err;
  EXPECT_LT(seconds, 30) << command;
  std::error_code ec;
  fs::remove_all(own, ec);
}

std::string case_name(const ::testing::TestParamInfo<HostileCase>& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Corpus, Hostile, ::testing::ValuesIn(hostile_cases()), case_name);

// The corpus keeps its promise of size: at least 60 files beside its script and list.
TEST(HostileCorpus, HoldsAtLeastSixtyFilesEachUsed) {
  std::string listed;
  for (auto& c : hostile_cases()) listed += c.command + "\n";
  int files = 0;
  for (auto& e : fs::directory_iterator(kCorpus)) {
    std::string name = e.path().filename().string();
    if (name == "cases.txt" || name == "make-large.sh") continue;
    ++files;
    EXPECT_NE(listed.find("{h}/" + name), std::string::npos) << name << " is in the corpus but no case uses it";
  }
  EXPECT_GE(files, 60);
}

}  // namespace
