// A PostgreSQL store URL that carries a secret, in any encoding libpq reads: every command
// that takes a store refuses it with exit 64 before connecting, and no output holds it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_perfgate;

TEST(StoreUrlSecrets, EveryCommandRefusesAUrlWithASecretAndNeverPrintsIt) {
  TempDir dir;
  ASSERT_EQ(run_perfgate({"run", "--runs", "1", "--warmup", "0", "-r", "results", "--", "true"},
                         dir.path())
                .exit_code,
            0);
  for (const std::string url : {"postgresql://perf@127.0.0.1:1/perf?%70assword=S3cretPW",
                                "postgresql://perf@127.0.0.1:1/perf?sslpassword=S3cretPW",
                                "postgresql://perf:S3cret%2FPW@127.0.0.1:1/perf",
                                "postgresql://perf:S3cret/PW@127.0.0.1:1/perf"}) {
    for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
             {"compare", "-r", "results", "--store", url},
             {"report", "--store", url},
             {"report", "--format", "html", "-o", "site", "--store", url},
             {"serve", "--store", url, "--port", "0"},
             {"store", "copy", url, "sqlite:copy.db"},
             {"baseline", "prepare", "-o", "m.json", "--store", url}}) {
      SCOPED_TRACE(url + " with " + command.front());
      const auto result = run_perfgate(command, dir.path(), {{"PERFGATE_STORE", ""}});
      EXPECT_EQ(result.exit_code, 64) << result.out << result.err;
      EXPECT_THAT(result.out + result.err, Not(HasSubstr("S3cret")));
    }
    // Through the environment too.
    const auto result = run_perfgate({"report"}, dir.path(), {{"PERFGATE_STORE", url}});
    EXPECT_EQ(result.exit_code, 64) << result.err;
    EXPECT_THAT(result.out + result.err, Not(HasSubstr("S3cret")));
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "copy.db"));
  EXPECT_FALSE(std::filesystem::exists(dir / "site"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
