#pragma once
// What `perfgate serve` answers, without the HTTP around it (docs/api.md): the viewer's
// files, its two data documents (data/store.json, data/history.json) and the read-only
// JSON API under /api/v1/. Every answer is computed from the store and the history file as
// they are at the request, so new records appear without a restart. Thread-safe: the HTTP
// server calls it from several threads.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "report/store_view.hpp"
#include "store/store.hpp"

namespace perfgate {

struct DashboardResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  bool is_data = false;  ///< computed from the store or history: never cached by a browser
};

/// Query parameters of a request (the last value of a repeated name wins).
using QueryParameters = std::map<std::string, std::string>;

class DashboardApi {
 public:
  /// `history` is the history.json to serve, or nullopt when serve was given none.
  /// `commit_url` is the project's commit page with "{sha}" (report_commit_url), "" for none:
  /// store.json carries it so that the viewer links each commit.
  DashboardApi(std::unique_ptr<Store> store, std::optional<std::filesystem::path> history,
               std::string commit_url = "");

  /// The answer to GET `path` (the URL's path, percent-decoded, without the query).
  /// A PostgreSQL store whose connection was lost (a restart) is asked once more, on a
  /// new connection; 503 when the server is still away.
  DashboardResponse get(const std::string& path, const QueryParameters& query);

  /// The version of the API under /api/v1/.
  static constexpr int kApiVersion = 1;

 private:
  DashboardResponse answer(const std::string& path, const QueryParameters& query);
  DashboardResponse store_view();
  DashboardResponse cohorts();
  DashboardResponse series(const QueryParameters& query);
  DashboardResponse records(const QueryParameters& query);
  DashboardResponse attempts();
  DashboardResponse history();
  /// What every store document says of where it comes from, as of now.
  StoreViewContext view_context() const;

  std::mutex mutex_;  ///< one request at a time reads the store (a store is not thread-safe)
  std::unique_ptr<Store> store_;
  std::optional<std::filesystem::path> history_;
  std::string commit_url_;
  std::string cached_revision_;  ///< the store revision store.json was computed for
  std::string cached_store_view_;
};

/// A JSON error body: {"error": message, "status": status}.
DashboardResponse dashboard_error(int status, const std::string& message);

}  // namespace perfgate
