#include "serve/dashboard_api.hpp"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <fstream>
#include <iterator>

#include "model/compact_json.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "report/html_site.hpp"
#include "report/store_report.hpp"
#include "report/store_view.hpp"
#include "report/viewer_assets.hpp"
#include "store/postgres_connection.hpp"

namespace perfgate {
namespace {

constexpr const char* kApiIndex =
    R"({"api_version":1,"endpoints":[)"
    R"({"path":"/api/v1/cohorts","query":[]},)"
    R"({"path":"/api/v1/series","query":["cohort"]},)"
    R"({"path":"/api/v1/records","query":["benchmark","since","cohort","limit"]},)"
    R"({"path":"/api/v1/attempts","query":[]},)"
    R"({"path":"/api/v1/history","query":[]}]})"
    "\n";

std::string parameter(const QueryParameters& query, const std::string& name) {
  const auto found = query.find(name);
  return found == query.end() ? std::string() : found->second;
}

/// Text of the query's filter as the CLI reads it; Error(kUsage) for a bad --since.
RecordFilter filter_of(const QueryParameters& query, std::time_t now) {
  RecordFilter filter;
  filter.benchmark_glob = parameter(query, "benchmark");
  const std::string since = parameter(query, "since");
  if (!since.empty()) filter.since = since_to_timestamp(since, now, "since");
  return filter;
}

DashboardResponse json_response(std::string body) {
  DashboardResponse response;
  response.body = std::move(body);
  response.is_data = true;
  return response;
}

}  // namespace

DashboardResponse dashboard_error(int status, const std::string& message) {
  DashboardResponse response;
  response.status = status;
  CompactJsonWriter json(response.body);
  json.begin_object().key("error").value(message).key("status").value(status).end_object();
  response.body += '\n';
  response.is_data = true;
  return response;
}

DashboardApi::DashboardApi(std::unique_ptr<Store> store,
                           std::optional<std::filesystem::path> history, std::string commit_url)
    : store_(std::move(store)), history_(std::move(history)), commit_url_(std::move(commit_url)) {}

StoreViewContext DashboardApi::view_context() const {
  StoreViewContext context;
  context.store_url = store_->url();
  context.generated_at = iso_utc(std::time(nullptr));
  context.commit_url = commit_url_;
  return context;
}

DashboardResponse DashboardApi::get(const std::string& path, const QueryParameters& query) {
  for (int tries = 1;; ++tries) {
    try {
      return answer(path, query);
    } catch (const PgConnectionLost& lost) {
      // Every answer only reads, so asking again on the connection made anew is safe.
      if (tries < 2) continue;
      return dashboard_error(503, lost.what());
    } catch (const Error& error) {
      const int status = error.code() == ExitCode::kUsage ? 400 : 500;
      return dashboard_error(status, error.what());
    }
  }
}

DashboardResponse DashboardApi::answer(const std::string& path, const QueryParameters& query) {
  if (path == "/data/store.json") return store_view();
  if (path == "/data/history.json" || path == "/api/v1/history") return history();
  if (path == "/api/v1" || path == "/api/v1/") return json_response(kApiIndex);
  if (path == "/api/v1/cohorts") return cohorts();
  if (path == "/api/v1/series") return series(query);
  if (path == "/api/v1/records") return records(query);
  if (path == "/api/v1/attempts") return attempts();
  // The viewer's own files, and nothing else: a path is served only when it is one of
  // them, so no request reaches the file system.
  const std::string asset = path == "/" ? "index.html" : path.substr(1);
  for (const ViewerAsset& file : viewer_assets()) {
    if (!path.empty() && path[0] == '/' && file.path == asset) {
      DashboardResponse response;
      response.content_type = std::string(file.content_type);
      response.body = std::string(file.content);
      return response;
    }
  }
  // data/store.js and data/history.js are what a site written to disk has instead; the
  // page asks for them first. Not found, but as a script: a browser refuses a JSON answer
  // to a script request with an error of its own, where a 404 is an ordinary absence.
  if (path == "/data/store.js" || path == "/data/history.js") {
    DashboardResponse response;
    response.status = 404;
    response.content_type = "text/javascript; charset=utf-8";
    response.body = "// " + path.substr(1) +
                    " is only in sites written to disk; a served page fetches the .json\n";
    response.is_data = true;
    return response;
  }
  return dashboard_error(404, "no such page or endpoint: " + path + " (see /api/v1)");
}

DashboardResponse DashboardApi::store_view() {
  std::lock_guard lock(mutex_);
  const std::string revision = store_->revision();
  if (revision != cached_revision_ || cached_store_view_.empty()) {
    cached_store_view_ = write_store_view(store_->list_records({}), view_context());
    cached_revision_ = revision;
  }
  return json_response(cached_store_view_);
}

DashboardResponse DashboardApi::cohorts() {
  std::lock_guard lock(mutex_);
  return json_response(write_store_cohort_index(store_->list_records({}), view_context()));
}

DashboardResponse DashboardApi::series(const QueryParameters& query) {
  const std::string cohort = parameter(query, "cohort");
  if (cohort.empty()) {
    return dashboard_error(400, "series needs ?cohort=ID, an id from /api/v1/cohorts");
  }
  std::lock_guard lock(mutex_);
  // Every record, not the cohort's alone: the cohort's label is made among its siblings,
  // as /api/v1/cohorts and store.json name it.
  const std::vector<StoredRecord> records = store_->list_records({});
  const bool known = std::any_of(records.begin(), records.end(), [&](const StoredRecord& stored) {
    return store_view_cohort_id(stored.record) == cohort;
  });
  if (!known) {
    return dashboard_error(404, "no cohort '" + cohort + "' in the store (see /api/v1/cohorts)");
  }
  StoreViewContext context = view_context();
  context.cohort = cohort;
  return json_response(write_store_view(records, context));
}

DashboardResponse DashboardApi::records(const QueryParameters& query) {
  const std::time_t now = std::time(nullptr);
  const RecordFilter filter = filter_of(query, now);
  std::size_t limit = 0;
  if (const std::string text = parameter(query, "limit"); !text.empty()) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), limit);
    if (error != std::errc() || end != text.data() + text.size()) {
      return dashboard_error(400, "limit '" + text + "' is not a whole number of records");
    }
  }
  const std::string cohort = parameter(query, "cohort");
  std::lock_guard lock(mutex_);
  std::vector<StoredRecord> kept;
  for (auto& stored : store_->list_records(filter)) {
    if (limit != 0 && kept.size() == limit) break;
    if (cohort.empty() || store_view_cohort_id(stored.record) == cohort) {
      kept.push_back(std::move(stored));
    }
  }
  ReportContext context;
  context.store_url = store_->url();
  context.generated_at = iso_utc(now);
  context.filter = {
      {"benchmark", filter.benchmark_glob.empty() ? Json(nullptr) : Json(filter.benchmark_glob)},
      {"since", filter.since.empty() ? Json(nullptr) : Json(filter.since)},
      {"cohort", cohort.empty() ? Json(nullptr) : Json(cohort)},
      {"limit", limit == 0 ? Json(nullptr) : Json(limit)}};
  return json_response(render_report_json(kept, context));
}

DashboardResponse DashboardApi::attempts() {
  std::lock_guard lock(mutex_);
  std::string body;
  CompactJsonWriter json(body);
  json.begin_object().key("api_version").value(kApiVersion).key("attempts").begin_array();
  for (const AttemptSummary& attempt : store_->list_attempts()) {
    json.begin_object();
    json.key("attempt_id").value(attempt.attempt_id);
    json.key("commit_sha");
    if (attempt.commit_sha.empty()) {
      json.null();
    } else {
      json.value(attempt.commit_sha);
    }
    json.key("created_at").value(attempt.created_at);
    json.key("record_count").value(static_cast<std::uint64_t>(attempt.record_count));
    json.key("run_source").value(attempt.run_source);
    json.key("success").value(attempt.success);
    json.end_object();
  }
  json.end_array().key("store").value(store_->url()).end_object();
  body += '\n';
  return json_response(std::move(body));
}

DashboardResponse DashboardApi::history() {
  if (!history_) {
    return dashboard_error(404,
                           "this server has no commit history: start it with --history "
                           "history.json");
  }
  std::ifstream in(*history_, std::ios::binary);
  if (!in) {
    return dashboard_error(503, history_->string() +
                                    " cannot be read now; check that "
                                    "'perfgate history export' still writes it there");
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  check_history_document(text, history_->string());  // a broken file answers 500, with why
  return json_response(std::move(text));
}

}  // namespace perfgate
