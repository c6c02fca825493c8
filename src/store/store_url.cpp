// Store URLs (SPEC §12): "sqlite:PATH", "dir:PATH" and "postgresql://…", and which one a
// command uses.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "model/error.hpp"
#include "store/absent_store.hpp"
#include "store/dir_store.hpp"
#include "store/postgres_schema.hpp"
#include "store/postgres_store.hpp"
#include "store/postgres_url.hpp"
#include "store/sqlite_store.hpp"
#include "store/store.hpp"

namespace perfgate {
namespace {

constexpr const char* kDefaultStoreUrl = "sqlite:.perfgate/perfgate.db";

// mode=ro first: it sees a writer at work. In WAL mode it needs the -shm file, which SQLite
// cannot create in a folder the reader cannot write (or on a full disk); when no -wal file
// with frames in it shows a writer there, immutable=1 reads the file alone.
std::unique_ptr<Store> open_sqlite_read_only(const std::string& url,
                                             const std::filesystem::path& file,
                                             const Error& read_write_error) {
  try {
    return std::make_unique<SqliteStore>(url, file, SqliteAccess::kReadOnly);
  } catch (const Error&) {
    // A -wal file with frames in it may hold commits the file alone does not have yet.
    std::error_code error;
    const auto wal_bytes = std::filesystem::file_size(file.string() + "-wal", error);
    if (!error && wal_bytes > 0) throw read_write_error;
  }
  try {
    auto store = std::make_unique<SqliteStore>(url, file, SqliteAccess::kImmutable);
    std::cerr << "perfgate: note: " << file.string()
              << ": read as an immutable file (it cannot be opened for writing here: a "
                 "store or folder this user cannot write, or a full disk): what a writer "
                 "stores from now on is not seen\n";
    return store;
  } catch (const Error&) {
    throw read_write_error;
  }
}

}  // namespace

std::unique_ptr<Store> open_store(const std::string& url) {
  if (is_postgres_url(url)) return std::make_unique<PostgresStore>(url, /*must_exist=*/false);
  const auto colon = url.find(':');
  const std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
  const std::string path = colon == std::string::npos ? "" : url.substr(colon + 1);
  if ((scheme == "sqlite" || scheme == "dir") && path.empty()) {
    throw Error(ExitCode::kUsage, "store URL '" + url + "' has no path. Write " + scheme +
                                      ":PATH, e.g. " + scheme + ":.perfgate/" +
                                      (scheme == "sqlite" ? "perfgate.db" : "store"));
  }
  if (scheme == "sqlite") return std::make_unique<SqliteStore>(url, path);
  if (scheme == "dir") return std::make_unique<DirStore>(url, path);
  // A URL with an '@' may hold a password ("postgres:/user:pw@host", one slash short):
  // only its scheme is shown.
  const std::string shown = url.find('@') == std::string::npos ? url : scheme + ":(not shown)";
  throw Error(ExitCode::kUsage,
              "store URL '" + shown +
                  "' has an unknown scheme. Use sqlite:PATH (a database file), dir:PATH (a "
                  "folder of JSON files) or postgresql://[USER@]HOST[:PORT]/DATABASE (a "
                  "team's server)");
}

std::unique_ptr<Store> open_existing_store(const std::string& url) {
  if (is_postgres_url(url)) return std::make_unique<PostgresStore>(url, /*must_exist=*/true);
  const auto path = store_local_path(url);
  if (path && !std::filesystem::exists(*path)) {
    throw Error(ExitCode::kNoInput, "store " + url +
                                        " does not exist. Pass --store (or set PERFGATE_STORE) "
                                        "to the store that 'perfgate compare --upload' wrote");
  }
  try {
    return open_store(url);
  } catch (const Error& error) {
    // A SQLite store its reader cannot write (another user's, a read-only folder, a full
    // disk): read it read-only. A command that then writes is refused by SQLite itself.
    if (!path || !url.starts_with("sqlite:") || error.code() != ExitCode::kIoError) throw;
    return open_sqlite_read_only(url, *path, error);
  }
}

std::optional<std::filesystem::path> store_local_path(const std::string& url) {
  const auto colon = url.find(':');
  if (is_postgres_url(url) || colon == std::string::npos) return std::nullopt;
  const std::string scheme = url.substr(0, colon);
  const std::string path = url.substr(colon + 1);
  if ((scheme != "sqlite" && scheme != "dir") || path.empty()) return std::nullopt;
  return std::filesystem::path(path);
}

bool store_exists(const std::string& url) {
  if (is_postgres_url(url)) {
    // A server that cannot be reached counts as existing: open_store then says why.
    try {
      PgConnection db(url);
      return postgres_store_present(db);
    } catch (const Error&) {
      return true;
    }
  }
  const auto path = store_local_path(url);
  if (!path) return true;
  std::error_code error;
  return std::filesystem::exists(*path, error);
}

StoreChoice choose_store(const std::string& flag, const std::optional<std::string>& project_url) {
  const std::string url = resolve_store_url(flag, project_url);
  const char* environment = std::getenv("PERFGATE_STORE");
  const bool named = !flag.empty() || (environment != nullptr && *environment != '\0') ||
                     (project_url && !project_url->empty());
  return {url, !named};
}

std::unique_ptr<Store> open_judging_store(const StoreChoice& choice, bool init, bool will_write) {
  if (store_exists(choice.url)) return open_store(choice.url);
  if (!init && choice.outside_project) {
    throw Error(ExitCode::kNoInput,
                "no perfgate project here: no perfgate.toml in this folder or above it, and no "
                ".perfgate/ folder, so the default store " +
                    choice.url +
                    " would be a new, empty store. Run perfgate in your project's folder (or "
                    "below it), name the store with --store, or pass --init to start a new store "
                    "here");
  }
  if (!init && !choice.is_default) {
    throw Error(ExitCode::kNoInput,
                "store " + choice.url +
                    " does not exist. Check the URL (--store, PERFGATE_STORE or [store] url in "
                    "perfgate.toml); to start a new store there, pass --init");
  }
  if (will_write) return open_store(choice.url);
  return std::make_unique<AbsentStore>(choice.url);
}

std::string resolve_store_url(const std::string& flag,
                              const std::optional<std::string>& project_url) {
  if (!flag.empty()) return flag;
  if (const char* environment = std::getenv("PERFGATE_STORE");
      environment != nullptr && *environment != '\0') {
    return environment;
  }
  if (project_url && !project_url->empty()) return *project_url;
  return kDefaultStoreUrl;
}

}  // namespace perfgate
