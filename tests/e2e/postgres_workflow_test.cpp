// The main job on a PostgreSQL store, through the real binary: run, compare --upload always
// (refused on a database without a store unless --init, a no-op the second time), report,
// and every message with the URL shown as the user may see it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/json.hpp"
#include "store/postgres_connection.hpp"
#include "support/cli_runner.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;

TEST(PostgresWorkflow, ComparesUploadsOnceAndReportsFromPostgres) {
  TempDir dir;
  dir.write("suite/echo.toml", R"(
benchmark_id = "echo"
command = ["/bin/echo", "hello"]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 2
)");
  const std::string url = new_postgres_test_database();
  const std::map<std::string, std::string> env{{"PERFGATE_STORE", url}};
  ASSERT_EQ(run_perfgate({"run", "suite", "-r", "out"}, dir.path()).exit_code, 0);

  // A database without a store is not taken for a new, empty store.
  const auto refused =
      run_perfgate({"compare", "-r", "out", "--upload", "always"}, dir.path(), env);
  EXPECT_EQ(refused.exit_code, 66) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("store " + url + " does not exist"));
  PgConnection db(url);
  EXPECT_EQ(db.run("SELECT count(*) FROM pg_namespace WHERE nspname = 'perfgate'").integer(0, 0),
            0);

  const auto first =
      run_perfgate({"compare", "-r", "out", "--upload", "always", "--init"}, dir.path(), env);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto second = run_perfgate({"compare", "-r", "out", "--upload", "always"}, dir.path(), env);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(db.run("SELECT count(*) FROM perfgate.records").integer(0, 0), 1);
  EXPECT_EQ(db.run("SELECT count(*) FROM perfgate.attempts").integer(0, 0), 1);

  const auto report = run_perfgate({"report", "--format", "json"}, dir.path(), env);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, HasSubstr("\"echo\""));
}

TEST(PostgresWorkflow, PassesLibpqParametersThroughAndNamesTheOneItRefuses) {
  TempDir dir;
  const std::string url = new_postgres_test_database() + "&sslmode=sometimes";
  const auto result = run_perfgate({"report", "--store", url}, dir.path());
  EXPECT_EQ(result.exit_code, 74);
  EXPECT_THAT(result.err, HasSubstr("invalid sslmode value: \"sometimes\""));
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "one line: " << result.err;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
