// perfgate store copy between every pair of backends: everything arrives, a second copy is
// a no-op, and a round trip gives back the same content ids.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "model/error.hpp"
#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/store_copy.hpp"
#include "store/store_fixtures.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

struct BackendPair {
  StoreBackend source;
  StoreBackend destination;
};

std::vector<BackendPair> all_pairs() {
  std::vector<BackendPair> pairs;
  for (const auto& source : all_store_backends()) {
    for (const auto& destination : all_store_backends()) pairs.push_back({source, destination});
  }
  return pairs;
}

void PrintTo(const BackendPair& pair, std::ostream* out) {
  *out << pair.source.name << "To" << pair.destination.name;
}

/// Every attempt id, record id (with its attempt) and approval of a store.
struct StoreContent {
  std::set<std::string> attempts;
  std::set<std::pair<std::string, std::string>> records;
  std::set<std::pair<std::string, std::vector<std::string>>> approvals;
  bool operator==(const StoreContent&) const = default;
};

StoreContent content_of(Store& store) {
  StoreContent content;
  for (const auto& attempt : store.list_attempts()) content.attempts.insert(attempt.attempt_id);
  for (const auto& stored : store.list_records({})) {
    content.records.emplace(stored.record.record_id, stored.attempt_id);
  }
  for (const auto& approval : store.list_approvals()) {
    content.approvals.emplace(approval.approval_id, approval.record_ids);
  }
  return content;
}

class StoreCopy : public ::testing::TestWithParam<BackendPair> {
 protected:
  TempDir source_dir_;
  TempDir destination_dir_;
};

TEST_P(StoreCopy, CopiesEveryAttemptAndApprovalAndASecondCopyChangesNothing) {
  auto source = open_store(GetParam().source.url(source_dir_.path()));
  NormalizedRecord ineligible = test_record("pr-run", "2026-01-01T00:00:03Z");
  ineligible.baseline_eligible = false;
  ineligible.run_source = "pr";
  const Attempt first =
      test_attempt("2026-01-01T00:00:00Z", {test_record("b", "2026-01-01T00:00:02Z"),
                                            test_record("a", "2026-01-01T00:00:01Z"), ineligible});
  Attempt failed = test_attempt("2026-01-02T00:00:00Z", {});
  failed.success = false;
  failed.errors = {"build failed"};
  assign_attempt_id(failed);
  source->append(first);
  source->append(failed);
  source->approve({first.records[2].record_id}, "approval-1", source->revision());

  auto destination = open_store(GetParam().destination.url(destination_dir_.path()));
  const StoreCopyOutcome outcome = copy_store(*source, *destination, {});
  EXPECT_EQ(outcome.attempts, 2u);
  EXPECT_EQ(outcome.attempts_copied, 2u);
  EXPECT_EQ(outcome.records, 3u);
  EXPECT_EQ(outcome.records_copied, 3u);
  EXPECT_EQ(outcome.approvals, 1u);
  EXPECT_EQ(outcome.approvals_copied, 1u);
  EXPECT_EQ(outcome.verified, 2u);
  EXPECT_EQ(content_of(*destination), content_of(*source));
  EXPECT_EQ(destination->read_attempt(first.attempt_id), first);
  EXPECT_EQ(destination->read_attempt(failed.attempt_id), failed);
  // The approval made the PR record eligible there too.
  EXPECT_EQ(destination->baseline_records(test_cohort(), 10).size(), 3u);

  const std::string revision = destination->revision();
  const StoreCopyOutcome again = copy_store(*source, *destination, {});
  EXPECT_EQ(again.attempts_copied, 0u);
  EXPECT_EQ(again.records_copied, 0u);
  EXPECT_EQ(again.approvals_copied, 0u);
  EXPECT_EQ(again.verified, 2u);
  EXPECT_EQ(destination->revision(), revision);
}

TEST_P(StoreCopy, RefusesADestinationHoldingOneOfTheRecordsUnderAnotherAttempt) {
  auto source = open_store(GetParam().source.url(source_dir_.path()));
  const NormalizedRecord shared = test_record("shared", "2026-01-01T00:00:01Z");
  source->append(test_attempt("2026-01-01T00:00:00Z", {shared}));
  auto destination = open_store(GetParam().destination.url(destination_dir_.path()));
  destination->append(test_attempt("2026-01-05T00:00:00Z", {shared}));
  try {
    copy_store(*source, *destination, {});
    ADD_FAILURE() << "expected a conflict";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_THAT(e.what(), HasSubstr("already stored"));
  }
  EXPECT_EQ(destination->list_attempts().size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(AllBackendPairs, StoreCopy, ::testing::ValuesIn(all_pairs()),
                         [](const ::testing::TestParamInfo<BackendPair>& info) {
                           return info.param.source.name + "To" + info.param.destination.name;
                         });

// The check: a 10,000-record SQLite store to PostgreSQL and back, identical by ids.
TEST(StoreCopyRoundTrip, GivesBackTenThousandRecordsIdenticalByContentIds) {
  const TempDir dir;
  const auto backends = all_store_backends();
  const auto backend = [&](const std::string& name) {
    return *std::find_if(backends.begin(), backends.end(),
                         [&](const StoreBackend& b) { return b.name == name; });
  };
  auto sqlite = open_store("sqlite:" + (dir / "source.db").string());
  for (int a = 0; a < 500; ++a) {
    std::vector<NormalizedRecord> records;
    for (int r = 0; r < 20; ++r) {
      records.push_back(test_record("bench-" + std::to_string(a) + "-" + std::to_string(r),
                                    "2026-01-01T00:00:00Z", a + r / 100.0));
    }
    sqlite->append(test_attempt("2026-01-01T00:00:00Z", std::move(records)));
  }
  auto postgres = open_store(backend("Postgres").url(dir / "pg"));
  copy_store(*sqlite, *postgres, {});
  auto back = open_store("sqlite:" + (dir / "back.db").string());
  const StoreCopyOutcome outcome = copy_store(*postgres, *back, {});
  EXPECT_EQ(outcome.records_copied, 10'000u);
  const StoreContent original = content_of(*sqlite);
  EXPECT_EQ(original.records.size(), 10'000u);
  EXPECT_EQ(content_of(*postgres), original);
  EXPECT_EQ(content_of(*back), original);
}

TEST(StoreCopyCommand, CopiesOnceThenFindsEverythingThereAndRefusesAMissingSource) {
  const TempDir dir;
  auto source = open_store("sqlite:" + (dir / "a.db").string());
  source->append(test_attempt("2026-01-01T00:00:00Z", {test_record("a", "2026-01-01T00:00:01Z")}));
  source.reset();
  const std::vector<std::string> args = {"store", "copy", "sqlite:a.db", "dir:copy", "--json"};
  const auto first = testing::run_perfgate(args, dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(Json::parse(first.out)["attempts_copied"], 1);
  EXPECT_EQ(Json::parse(first.out)["verified"], 1);
  const auto second = testing::run_perfgate(args, dir.path());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(Json::parse(second.out)["attempts_copied"], 0);
  EXPECT_EQ(Json::parse(second.out)["attempts"], 1);

  const auto text = testing::run_perfgate({"store", "copy", "sqlite:a.db", "dir:copy"}, dir.path());
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, HasSubstr("attempts   1 (0 copied, 1 already there)"));

  const auto missing =
      testing::run_perfgate({"store", "copy", "sqlite:typo.db", "dir:other"}, dir.path());
  EXPECT_EQ(missing.exit_code, 66);
  EXPECT_THAT(missing.err, HasSubstr("perfgate: error: SRC sqlite:typo.db does not exist"));
  EXPECT_FALSE(std::filesystem::exists(dir / "typo.db"));
  EXPECT_FALSE(std::filesystem::exists(dir / "other"));

  const auto password = testing::run_perfgate(
      {"store", "copy", "sqlite:a.db", "postgresql://perf:hunter2@127.0.0.1/perf"}, dir.path());
  EXPECT_EQ(password.exit_code, 64);
  EXPECT_THAT(password.err, HasSubstr("postgresql://perf:***@127.0.0.1/perf"));
  EXPECT_EQ(password.err.find("hunter2"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
