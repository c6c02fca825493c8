#pragma once
// `perfgate store copy SRC DST`: a store moved between backends, idempotent and verified
// (docs/store.md).
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct StoreCopyOptions {
  std::string source;
  std::string destination;
  bool json = false;
  bool no_progress = false;
  std::string check_store;  ///< `store check --store`: default, the project's store
};

struct StoreCommands {
  CLI::App* store = nullptr;
  CLI::App* copy = nullptr;
  CLI::App* check = nullptr;
};

StoreCommands add_store_command(CLI::App& app, StoreCopyOptions& options);
int execute_store_copy(const StoreCopyOptions& options);
/// `perfgate store check`: reads every record and names each damaged one (as git fsck).
int execute_store_check(const StoreCopyOptions& options);

}  // namespace perfgate
