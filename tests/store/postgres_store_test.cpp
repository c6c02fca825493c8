// What only the PostgreSQL store has: URLs without passwords, a database that holds no
// store, a newer schema, text PostgreSQL cannot hold, and a read-only role. Everything
// every backend promises is in store_contract_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "store/postgres_connection.hpp"
#include "store/postgres_url.hpp"
#include "store/store.hpp"
#include "store/store_fixtures.hpp"
#include "store/stored_rows.hpp"
#include "support/cli_runner.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using ::testing::Not;

template <typename Action>
Error error_of(Action action) {
  try {
    action();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error";
  return Error(ExitCode::kOk, "");
}

TEST(PostgresUrl, TellsPostgresUrlsFromOthers) {
  EXPECT_TRUE(is_postgres_url("postgresql://perf@db.internal/perf"));
  EXPECT_TRUE(is_postgres_url("postgres:///perf?host=/run/postgresql"));
  EXPECT_TRUE(is_postgres_url("PostgreSQL://db/perf"));
  EXPECT_FALSE(is_postgres_url("sqlite:postgresql.db"));
  EXPECT_FALSE(is_postgres_url("postgresql:db"));
}

TEST(PostgresUrl, HidesEveryPassword) {
  EXPECT_EQ(redact_postgres_url("postgresql://perf:s3cret@db.internal:5433/perf"),
            "postgresql://perf:***@db.internal:5433/perf");
  EXPECT_EQ(redact_postgres_url("postgresql://perf@db/perf?sslmode=require&password=s3cret"),
            "postgresql://perf@db/perf?sslmode=require&password=***");
  EXPECT_EQ(redact_postgres_url("postgresql://a:b@db/perf?password=c&user=x"),
            "postgresql://a:***@db/perf?password=***&user=x");
  EXPECT_EQ(redact_postgres_url("postgresql://perf@db/perf?sslmode=verify-full"),
            "postgresql://perf@db/perf?sslmode=verify-full");
  EXPECT_EQ(redact_postgres_url("postgres:///perf?host=/run/postgresql"),
            "postgres:///perf?host=/run/postgresql");
}

/// Every form of a secret in a URL, as libpq reads it: each must be refused, and neither
/// the refusal nor the redacted form may hold the secret.
struct SecretForm {
  const char* url;
  const char* redacted;  // nullptr: not readable, shown as "postgresql://(not shown)"
};

TEST(PostgresUrl, RefusesEveryEncodingOfASecretAndNeverShowsIt) {
  const SecretForm forms[] = {
      {"postgresql://perf:S3cretPW@db/perf", "postgresql://perf:***@db/perf"},
      {"postgresql://perf:@db/perf", "postgresql://perf:***@db/perf"},
      {"postgresql://perf@db/perf?password=S3cretPW", "postgresql://perf@db/perf?password=***"},
      {"postgresql://perf@db/perf?%70assword=S3cretPW", "postgresql://perf@db/perf?password=***"},
      {"postgresql://perf@db/perf?%70%61%73%73%77%6F%72%64=S3cretPW",
       "postgresql://perf@db/perf?password=***"},
      {"postgresql://perf@db/perf?PASSWORD=S3cretPW", "postgresql://perf@db/perf?PASSWORD=***"},
      {"postgresql://perf@db/perf?sslpassword=S3cretPW",
       "postgresql://perf@db/perf?sslpassword=***"},
      {"postgresql://perf@db/perf?ssl%70assword=S3cretPW",
       "postgresql://perf@db/perf?sslpassword=***"},
      {"postgresql://perf@db/perf?sslmode=require&password=S3cret%2FPW&user=x",
       "postgresql://perf@db/perf?sslmode=require&password=***&user=x"},
      {"POSTGRES://perf:S3cret%40PW@db/perf", "postgres://perf:***@db/perf"},
      // libpq takes the user part up to the first '@' before any '/': a '?' in it is
      // part of the password.
      {"postgresql://perf:S3cret?PW@db/perf", "postgresql://perf:***@db/perf"},
      // A '/' in the password: libpq would read "perf:S3cret" as a host and echo it.
      {"postgresql://perf:S3cret/PW@db/perf", nullptr},
      {"postgresql://perf@db/perf?password=S3cret%zzPW", nullptr},
      {"postgresql://perf@db/perf?password", nullptr},
  };
  for (const SecretForm& form : forms) {
    SCOPED_TRACE(form.url);
    const std::string redacted = redact_postgres_url(form.url);
    EXPECT_EQ(redacted, form.redacted ? std::string(form.redacted)
                                      : std::string(form.url).substr(
                                            0, std::string(form.url).find("//") + 2) +
                                            "(not shown)");
    EXPECT_THAT(redacted, Not(HasSubstr("S3cret")));
    const Error e = error_of([&] { refuse_password_in_url(form.url); });
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_THAT(e.what(), Not(HasSubstr("S3cret")));
    EXPECT_THAT(e.what(), Not(HasSubstr("PW")));
  }
}

TEST(PostgresUrl, AcceptsAUrlWithoutASecretAndWritesItCanonically) {
  for (const char* url : {"postgresql://perf@db.internal:5433/perf?sslmode=require",
                          "postgresql:///perf?host=/run/postgresql&user=perf",
                          "postgresql://db1:5432,db2:5433/perf?target_session_attrs=read-write"}) {
    EXPECT_NO_THROW(refuse_password_in_url(url)) << url;
    EXPECT_EQ(redact_postgres_url(url), url);
  }
  EXPECT_EQ(redact_postgres_url("postgresql://p%65rf@db/perf%20db?application_name=a%20b"),
            "postgresql://perf@db/perf%20db?application_name=a%20b");
}

TEST(PostgresStore, RefusesAPasswordInTheUrlWithoutPrintingIt) {
  for (const std::string url : {"postgresql://perf:s3cret@127.0.0.1/perf",
                                "postgresql://perf@127.0.0.1/perf?password=s3cret",
                                "postgresql://perf@127.0.0.1/perf?%70assword=s3cret",
                                "postgresql://perf@127.0.0.1/perf?sslpassword=s3cret"}) {
    const Error e = error_of([&] { open_store(url); });
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_THAT(e.what(), Not(HasSubstr("s3cret")));
    EXPECT_THAT(e.what(), HasSubstr("carries a password"));
    EXPECT_THAT(e.what(), HasSubstr("PGPASSFILE"));
  }
}

TEST(PostgresStore, SaysADatabaseThatDoesNotExistIsMissing) {
  const Error e = error_of([] { open_store(postgres_test_url("no_such_database")); });
  EXPECT_EQ(e.code(), ExitCode::kNoInput);
  EXPECT_THAT(e.what(), HasSubstr("database \"no_such_database\" does not exist"));
}

TEST(PostgresStore, SaysAServerThatCannotBeReachedIsUnavailable) {
  const TempDir nowhere;
  const Error e =
      error_of([&] { open_store("postgresql:///perf?host=" + nowhere.path().string()); });
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_THAT(e.what(), HasSubstr("cannot connect"));
  EXPECT_THAT(e.what(), HasSubstr("Check that the server is running"));
}

TEST(PostgresStore, LeavesADatabaseWithoutAStoreAloneWhenOnlyReading) {
  const std::string url = new_postgres_test_database();
  const Error e = error_of([&] { open_existing_store(url); });
  EXPECT_EQ(e.code(), ExitCode::kNoInput);
  EXPECT_THAT(e.what(), HasSubstr("holds no perfgate store"));
  EXPECT_FALSE(store_exists(url));
  PgConnection db(url);
  EXPECT_EQ(db.run("SELECT count(*) FROM pg_namespace WHERE nspname = 'perfgate'").integer(0, 0),
            0);
  open_store(url);
  EXPECT_TRUE(store_exists(url));
}

TEST(PostgresStore, RefusesAStoreWrittenByANewerPerfgateAndChangesNothing) {
  const std::string url = new_postgres_test_database();
  open_store(url);
  PgConnection db(url);
  db.exec("UPDATE perfgate.meta SET value = 99 WHERE key = 'store_schema_version'");
  const Error e = error_of([&] { open_store(url); });
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_THAT(e.what(), HasSubstr("store schema version 99 was written by a newer perfgate"));
  EXPECT_EQ(
      db.run("SELECT value FROM perfgate.meta WHERE key = 'store_schema_version'").integer(0, 0),
      99);
}

// Invalid UTF-8 never reaches a store (an attempt's id cannot be computed over it); a NUL
// byte is valid JSON (\u0000) but no PostgreSQL text.
TEST(PostgresStore, RefusesANameWithANulByteAndStoresNothingOfItsAttempt) {
  auto store = open_store(new_postgres_test_database());
  const Attempt bad = test_attempt(
      "2026-01-01T00:00:00Z", {test_record("fine", "2026-01-01T00:00:01Z"),
                               test_record(std::string("bad\0name", 8), "2026-01-01T00:00:02Z")});
  const Error e = error_of([&] { store->append(bad); });
  EXPECT_EQ(e.code(), ExitCode::kDataError);
  EXPECT_THAT(e.what(), HasSubstr("valid UTF-8"));
  EXPECT_TRUE(store->list_records({}).empty());
  EXPECT_TRUE(store->list_attempts().empty());
  EXPECT_EQ(store->revision(), "0");
  // The connection is still usable.
  EXPECT_EQ(store->append(test_attempt("2026-01-01T00:00:00Z",
                                       {test_record("fine", "2026-01-01T00:00:01Z")})),
            AppendOutcome::kAppended);
}

// The grants docs/store.md gives a read-only role, applied as written there.
TEST(PostgresStore, LetsAReadOnlyRoleReportButNotWrite) {
  const std::string url = new_postgres_test_database();
  open_store(url)->append(
      test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")}));
  const std::size_t name_at = url.find("@/") + 2;
  const std::string database = url.substr(name_at, url.find('?') - name_at);
  PgConnection owner(url);
  owner.exec(
      "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'perfgate_reader') "
      "THEN CREATE ROLE perfgate_reader LOGIN; END IF; END $$");
  owner.exec("GRANT CONNECT ON DATABASE " + database + " TO perfgate_reader");
  owner.exec("GRANT USAGE ON SCHEMA perfgate TO perfgate_reader");
  owner.exec("GRANT SELECT ON ALL TABLES IN SCHEMA perfgate TO perfgate_reader");

  const std::string reader_url =
      "postgresql://perfgate_reader@/" + database + "?host=" + postgres_test_host();
  auto store = open_existing_store(reader_url);
  EXPECT_EQ(store->list_records({}).size(), 1u);
  const Error e = error_of([&] {
    store->append(test_attempt("2026-01-02T00:00:00Z", {test_record("b", "2026-01-02T00:00:01Z")}));
  });
  EXPECT_EQ(e.code(), ExitCode::kIoError);
  EXPECT_THAT(e.what(), HasSubstr("permission denied"));
  EXPECT_THAT(e.what(), HasSubstr("docs/store.md"));

  const TempDir cwd;
  const auto report =
      testing::run_perfgate({"report", "--store", reader_url, "--format", "json"}, cwd.path());
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, HasSubstr("\"a\""));
}

// Issue 33, 7, on PostgreSQL: one changed digit in one record's stored JSON leaves that
// record out, named with its attempt; the rest is read; an attempt read whole refuses it.
TEST(PostgresStore, LeavesOutARecordWhoseStoredJsonChangedAndNamesIt) {
  const std::string url = new_postgres_test_database();
  const Attempt a = test_attempt(
      "2026-01-01T00:00:00Z",
      {test_record("a", "2026-01-01T00:00:01Z", 1.5), test_record("b", "2026-01-01T00:00:02Z")});
  open_store(url)->append(a);
  PgConnection(url).exec(
      "UPDATE perfgate.records SET json = replace(json, '1.5', '2.5') WHERE benchmark_id = 'a'");

  const auto store = open_store(url);
  const auto records = store->list_records({});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].record.benchmark_id, "b");
  bool named = false;
  for (const auto& damaged : damaged_records_seen()) {
    named =
        named || (damaged.store == store->url() && damaged.record_id == a.records[0].record_id &&
                  damaged.attempt_id == a.attempt_id);
  }
  EXPECT_TRUE(named);
  const Error e = error_of([&] { store->read_attempt(a.attempt_id); });
  EXPECT_EQ(e.code(), ExitCode::kDataError);
  EXPECT_THAT(e.what(), HasSubstr("record " + a.records[0].record_id + " is damaged"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
