#include <gtest/gtest.h>

#include "config/benchmark_config.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(CommandSpec, RunsAnArgvCommandWithoutAShell) {
  CommandSpec command;
  command.argv = {"./bench", "--size", "10"};
  EXPECT_EQ(command.to_argv(), (std::vector<std::string>{"./bench", "--size", "10"}));
  EXPECT_EQ(command.to_json(), (Json{"./bench", "--size", "10"}));
  EXPECT_FALSE(command.empty());
}

TEST(CommandSpec, RunsAScriptThroughBinSh) {
  CommandSpec command;
  command.shell = true;
  command.script = "make && ./bench";
  EXPECT_EQ(command.to_argv(), (std::vector<std::string>{"/bin/sh", "-c", "make && ./bench"}));
  EXPECT_EQ(command.to_json(), Json("make && ./bench"));
}

TEST(CommandSpec, IsEmptyWhenItsActiveFormHasNothingToRun) {
  CommandSpec command;
  EXPECT_TRUE(command.empty());
  command.argv = {"x"};
  command.shell = true;
  EXPECT_TRUE(command.empty());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
