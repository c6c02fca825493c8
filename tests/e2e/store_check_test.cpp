// A record whose stored bytes changed (a flipped digit on disk, an edit of the database):
// every command leaves it out with a warning naming it and its attempt, reads the rest, and
// `perfgate store check` lists it and exits 65.
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "model/json.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

/// Runs SQL on the store's database file as another program would.
void edit_database(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int result = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(result, SQLITE_OK) << (error != nullptr ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

/// Two runs, step0 and step1, compared into the store $PERFGATE_STORE of `env` names:
/// one attempt of two records. False when a command failed.
bool store_two_records(const TempDir& dir, const std::map<std::string, std::string>& env) {
  for (int i = 0; i < 2; ++i) {
    const auto run = run_perfgate({"run", "--runs", "2", "--warmup", "0", "-r", "out", "--name",
                                   "step" + std::to_string(i), "--", "true"},
                                  dir.path());
    if (run.exit_code != 0) return false;
  }
  return run_perfgate({"compare", "--init", "-r", "out", "--all", "--upload", "always"}, dir.path(),
                      env)
             .exit_code == 0;
}

TEST(StoreCheck, NamesADamagedRecordAndKeepsEveryOtherOneUsable) {
  TempDir dir;
  const std::map<std::string, std::string> env{
      {"PERFGATE_STORE", "sqlite:" + (dir / "perf.db").string()}};
  ASSERT_TRUE(store_two_records(dir, env));
  auto check = run_perfgate({"store", "check"}, dir.path(), env);
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.out, HasSubstr("2 record(s) checked, none damaged"));

  // One digit of one record's stored JSON changes.
  edit_database(dir / "perf.db",
                "UPDATE records SET json = replace(json, '\"success\":true', "
                "'\"success\":false') WHERE benchmark_id = 'step0'");
  const auto report = run_perfgate({"report", "--format", "json"}, dir.path(), env);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const Json records = Json::parse(report.out)["records"];
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["benchmark_id"], "step1");
  EXPECT_THAT(report.err, HasSubstr("is damaged: its content no longer matches its id"));
  EXPECT_THAT(report.err, ::testing::ContainsRegex("record [0-9a-f]{64} of attempt [0-9a-f]{64}"));

  check = run_perfgate({"store", "check", "--json"}, dir.path(), env);
  EXPECT_EQ(check.exit_code, 65);
  const Json found = Json::parse(check.out);
  EXPECT_EQ(found["records_intact"], 1);
  ASSERT_EQ(found["damaged"].size(), 1u);
  EXPECT_EQ(found["damaged"][0]["record_id"].get<std::string>().size(), 64u);

  // A copy stops on it, naming the source, before writing that attempt.
  const auto copy = run_perfgate(
      {"store", "copy", "sqlite:" + (dir / "perf.db").string(), "sqlite:copy.db"}, dir.path());
  EXPECT_EQ(copy.exit_code, 65);
  EXPECT_THAT(copy.err, HasSubstr((dir / "perf.db").string()));
  EXPECT_THAT(copy.err, HasSubstr("is damaged"));
  EXPECT_THAT(copy.err, ::testing::Not(HasSubstr("assign_attempt_id")));
}

// The same through the real binary on a dir store: the edited record is named and left
// out; the rest of the store, the same attempt's other record included, is read.
TEST(StoreCheck, NamesADamagedRecordOfADirStoreAndReadsTheRest) {
  TempDir dir;
  const std::string url = "dir:" + (dir / "store").string();
  const std::map<std::string, std::string> env{{"PERFGATE_STORE", url}};
  ASSERT_TRUE(store_two_records(dir, env));
  fs::path file;
  for (const auto& entry : fs::directory_iterator(dir / "store" / "attempts")) file = entry.path();
  std::string text = read_text_file(file);
  // The first record's "success", not the attempt's own (which comes before the records).
  const std::string field = "\"success\": true";
  const auto at = text.find(field, text.find("\"records\""));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, field.size(), "\"success\": false");
  fs::remove(file);
  std::ofstream(file) << text;

  const auto report = run_perfgate({"report", "--format", "json"}, dir.path(), env);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(Json::parse(report.out)["records"].size(), 1u);
  EXPECT_THAT(report.err, HasSubstr("is damaged: its content no longer matches its id"));
  const auto check = run_perfgate({"store", "check"}, dir.path(), env);
  EXPECT_EQ(check.exit_code, 65);
  EXPECT_THAT(check.out, HasSubstr("1 damaged record(s), 1 intact"));
  const auto copy = run_perfgate({"store", "copy", url, "sqlite:copy.db"}, dir.path());
  EXPECT_EQ(copy.exit_code, 65);
  EXPECT_THAT(copy.err, HasSubstr("is damaged"));
}

/// Stores one record in `url` as root, makes the test folder writable by root alone, and
/// runs `perfgate report --format json` on it as `nobody`; false when that cannot be done.
bool report_as_nobody(const TempDir& dir, const std::string& url) {
  if (::geteuid() != 0 || std::system("command -v setpriv > /dev/null") != 0) return false;
  EXPECT_EQ(
      run_perfgate({"run", "--runs", "1", "--warmup", "0", "-r", "out", "--", "true"}, dir.path())
          .exit_code,
      0);
  EXPECT_EQ(run_perfgate({"compare", "--init", "-r", "out", "--upload", "always", "--store", url},
                         dir.path())
                .exit_code,
            0);
  // Readable by everyone, writable by root alone: `nobody` reads it as a dashboard user.
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    fs::permissions(entry.path(), fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
  }
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  const std::string command = "cd / && setpriv --reuid=65534 --regid=65534 --clear-groups '" +
                              std::string(PERFGATE_BINARY) + "' report --format json --store '" +
                              url + "' > '" + (dir / "nobody.out").string() + "' 2> '" +
                              (dir / "nobody.err").string() + "'";
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << read_text_file(dir / "nobody.err");
  return true;
}

TEST(StoreReaders, ReadADirStoreWithoutWriteAccessToIt) {
  TempDir dir;
  if (!report_as_nobody(dir, "dir:" + (dir / "store").string())) {
    GTEST_SKIP() << "needs root and setpriv to run perfgate as another user";
  }
  EXPECT_EQ(Json::parse(read_text_file(dir / "nobody.out"))["records"].size(), 1u);
}

// Issue 33, 8: SQLite in WAL mode needs its -shm file, which `nobody` cannot create in a
// folder it cannot write; with no writer at work (no -wal file) the store is read as an
// immutable file, and the reader is told what that means.
TEST(StoreReaders, ReadASqliteStoreInAFolderTheyCannotWrite) {
  TempDir dir;
  if (!report_as_nobody(dir, "sqlite:" + (dir / "db" / "perf.db").string())) {
    GTEST_SKIP() << "needs root and setpriv to run perfgate as another user";
  }
  EXPECT_EQ(Json::parse(read_text_file(dir / "nobody.out"))["records"].size(), 1u);
  EXPECT_THAT(read_text_file(dir / "nobody.err"),
              HasSubstr("read as an immutable file (it cannot be opened for writing here"));
  EXPECT_FALSE(fs::exists(dir / "db" / "perf.db-shm"));
}

/// A 2 MB tmpfs mounted on a folder of the test's own, unmounted when it goes; mounted()
/// is false where the test may not mount (not root, no CAP_SYS_ADMIN).
class SmallDisk {
 public:
  explicit SmallDisk(fs::path folder) : folder_(std::move(folder)) {
    fs::create_directories(folder_);
    mounted_ =
        ::geteuid() == 0 &&
        std::system(
            ("mount -t tmpfs -o size=2M tmpfs '" + folder_.string() + "' 2> /dev/null").c_str()) ==
            0;
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  ~SmallDisk() {
    if (mounted_) std::system(("umount '" + folder_.string() + "'").c_str());
  }
  bool mounted() const { return mounted_; }

 private:
  fs::path folder_;
  bool mounted_ = false;
};

// Issue 33, 8: `report` on a full disk read the store, instead of "disk I/O error".
TEST(StoreReaders, ReadASqliteStoreOnAFullDisk) {
  TempDir dir;
  SmallDisk disk(dir / "disk");
  if (!disk.mounted()) GTEST_SKIP() << "needs root and tmpfs to fill a disk";
  ASSERT_EQ(
      run_perfgate({"run", "--runs", "1", "--warmup", "0", "-r", "out", "--", "true"}, dir.path())
          .exit_code,
      0);
  const std::string url = "sqlite:" + (dir / "disk" / "perf.db").string();
  ASSERT_EQ(run_perfgate({"compare", "--init", "-r", "out", "--upload", "always", "--store", url},
                         dir.path())
                .exit_code,
            0);
  // Fill what is left, as a build or a log does.
  std::system(
      ("dd if=/dev/zero of='" + (dir / "disk" / "fill").string() + "' bs=4k 2> /dev/null").c_str());
  const auto report = run_perfgate({"report", "--format", "json", "--store", url}, dir.path());
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(Json::parse(report.out)["records"].size(), 1u);
  EXPECT_THAT(report.err, HasSubstr("read as an immutable file"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
