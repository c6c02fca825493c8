// The host whose compiler is asked on a second thread: asked at once, once, and everything
// else answered by the host it wraps.
#include "measure/compiler_asked_ahead.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/fake_host.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A host whose compiler answers only once the test lets it, and counts the questions.
class SlowCompilerHost final : public HostProbe {
 public:
  mutable std::atomic<int> asked{0};
  std::atomic<bool> answer{false};
  mutable std::atomic<bool> answered{false};
  testing::FakeHost facts;

  std::string read_file(const std::string& path) const override { return facts.read_file(path); }
  std::string uname_machine() const override { return facts.uname_machine(); }
  std::string uname_release() const override { return facts.uname_release(); }
  int logical_cores() const override { return facts.logical_cores(); }
  std::string libc_version() const override { return facts.libc_version(); }
  std::vector<GpuInfo> gpus(std::string& note) const override { return facts.gpus(note); }
  std::string compiler_version() const override {
    ++asked;
    while (!answer) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    answered = true;
    return "slowcc 1.0";
  }
  CommandOutput run_command(const std::vector<std::string>& argv,
                            const std::filesystem::path& cwd) const override {
    return facts.run_command(argv, cwd);
  }
};

TEST(CompilerAskedAhead, AsksTheCompilerOnceAndBeforeAnyoneNeedsIt) {
  SlowCompilerHost host;
  const CompilerAskedAhead ahead(host);
  // Nobody has asked for the version yet; the second thread has.
  for (int i = 0; i < 5000 && host.asked == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(host.asked, 1);
  // Meanwhile everything else is answered at once, by the host it wraps.
  EXPECT_EQ(ahead.uname_machine(), "x86_64");
  EXPECT_EQ(ahead.uname_release(), "6.1.0-18-amd64");
  EXPECT_EQ(ahead.logical_cores(), 16);
  EXPECT_EQ(ahead.libc_version(), "glibc 2.36");
  EXPECT_EQ(ahead.read_file("/proc/meminfo"),
            "MemTotal:       32823316 kB\nMemFree:        1234567 kB\n");
  std::string note;
  EXPECT_TRUE(ahead.gpus(note).empty());
  EXPECT_EQ(note, "no NVIDIA GPU: NVML (libnvidia-ml.so.1) could not be loaded: test");
  host.answer = true;
  EXPECT_EQ(ahead.compiler_version(), "slowcc 1.0");
  EXPECT_EQ(ahead.compiler_version(), "slowcc 1.0");
  EXPECT_EQ(host.asked, 1);
}

TEST(CompilerAskedAhead, RunsCommandsThroughTheHostItWraps) {
  SlowCompilerHost host;
  host.answer = true;
  host.facts.programs["python3"] = CommandOutput{true, 0, "3.11.2\n", ""};
  const CompilerAskedAhead ahead(host);
  const CommandOutput output = ahead.run_command({"python3", "--version"}, "/src");
  EXPECT_TRUE(output.started);
  EXPECT_EQ(output.out, "3.11.2\n");
  ASSERT_EQ(host.facts.commands_run.size(), 1u);
  EXPECT_EQ(host.facts.commands_run[0].second, std::filesystem::path("/src"));
}

TEST(CompilerAskedAhead, WaitsForTheAnswerWhenNobodyTookIt) {
  SlowCompilerHost host;
  std::thread later([&host] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    host.answer = true;
  });
  { const CompilerAskedAhead ahead(host); }  // destroyed without compiler_version()
  EXPECT_TRUE(host.answered);                // its thread was done with `host` by then
  later.join();
  EXPECT_EQ(host.asked, 1);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
