#include <stdlib.h>

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "store/store.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// Sets or clears $PERFGATE_STORE for one test and restores it afterwards.
class StoreEnvironment {
 public:
  explicit StoreEnvironment(const char* value) {
    if (const char* old = ::getenv("PERFGATE_STORE")) saved_ = old;
    if (value != nullptr) {
      ::setenv("PERFGATE_STORE", value, 1);
    } else {
      ::unsetenv("PERFGATE_STORE");
    }
  }
  ~StoreEnvironment() {
    if (saved_) {
      ::setenv("PERFGATE_STORE", saved_->c_str(), 1);
    } else {
      ::unsetenv("PERFGATE_STORE");
    }
  }

 private:
  std::optional<std::string> saved_;
};

TEST(ResolveStoreUrl, PrefersTheFlagOverEverythingElse) {
  const StoreEnvironment environment("dir:from-env");
  EXPECT_EQ(resolve_store_url("sqlite:flag.db", "dir:from-toml"), "sqlite:flag.db");
}

TEST(ResolveStoreUrl, UsesTheEnvironmentBeforePerfgateToml) {
  const StoreEnvironment environment("dir:from-env");
  EXPECT_EQ(resolve_store_url("", "dir:from-toml"), "dir:from-env");
}

TEST(ResolveStoreUrl, UsesPerfgateTomlWhenNeitherFlagNorEnvironmentIsSet) {
  const StoreEnvironment environment(nullptr);
  EXPECT_EQ(resolve_store_url("", "dir:from-toml"), "dir:from-toml");
}

TEST(ResolveStoreUrl, FallsBackToTheLocalSqliteDatabase) {
  const StoreEnvironment environment("");
  EXPECT_EQ(resolve_store_url("", std::nullopt), "sqlite:.perfgate/perfgate.db");
}

ExitCode open_code(const std::string& url) {
  try {
    open_store(url);
  } catch (const Error& e) {
    return e.code();
  }
  return ExitCode::kOk;
}

TEST(OpenStore, RejectsAnUnknownSchemeAsAUsageError) {
  EXPECT_EQ(open_code("ftp://host/perf"), ExitCode::kUsage);
  EXPECT_EQ(open_code("perfgate.db"), ExitCode::kUsage);
  try {
    open_store("mongo:x");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "store URL 'mongo:x' has an unknown scheme. Use sqlite:PATH (a database file), "
              "dir:PATH (a folder of JSON files) or postgresql://[USER@]HOST[:PORT]/DATABASE (a "
              "team's server)");
  }
}

TEST(OpenStore, RejectsAUrlWithoutAPath) {
  try {
    open_store("dir:");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_EQ(std::string(e.what()),
              "store URL 'dir:' has no path. Write dir:PATH, e.g. dir:.perfgate/store");
  }
}

TEST(OpenStore, OpensEachSchemeAsItsBackend) {
  TempDir dir;
  EXPECT_EQ(open_store("sqlite:" + (dir / "a.db").string())->url(),
            "sqlite:" + (dir / "a.db").string());
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "a.db"));
  EXPECT_EQ(open_store("dir:" + (dir / "b").string())->url(), "dir:" + (dir / "b").string());
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "b" / "store.json"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
