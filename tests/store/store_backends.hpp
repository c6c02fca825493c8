#pragma once
// The store backends every store test runs against. A new backend is one more line in
// all_store_backends(); the contract, crash and concurrency suites then cover it.
#include <filesystem>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/postgres_server.hpp"

namespace perfgate {

struct StoreBackend {
  std::string name;  ///< test-name suffix
  /// The URL of a store that lives in (or is reached through) the given fresh folder.
  std::function<std::string(const std::filesystem::path& folder)> url;
  bool sqlite = false;  ///< run SQLite's own integrity check too
};

inline std::vector<StoreBackend> all_store_backends() {
  return {
      {"Sqlite",
       [](const auto& folder) { return "sqlite:" + (folder / "db" / "perfgate.db").string(); },
       true},
      {"Dir", [](const auto& folder) { return "dir:" + (folder / "store").string(); }, false},
      // A database of its own on the tests' server (support/postgres_server.hpp), one per
      // folder: a test that reopens its store reaches the same database.
      {"Postgres",
       [](const auto& folder) {
         static std::map<std::filesystem::path, std::string> databases;
         auto [at, created] = databases.try_emplace(folder);
         if (created) at->second = new_postgres_test_database();
         return at->second;
       },
       false},
  };
}

/// Makes GoogleTest print a backend by its name.
inline void PrintTo(const StoreBackend& backend, std::ostream* out) {
  *out << backend.name;
}

inline std::string backend_name(const ::testing::TestParamInfo<StoreBackend>& info) {
  return info.param.name;
}

}  // namespace perfgate
