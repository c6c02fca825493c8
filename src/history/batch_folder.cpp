#include "history/batch_folder.hpp"

#include <fstream>
#include <sstream>

#include "history/history_document.hpp"
#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

BatchStatus read_status(const std::string& text, const std::string& source) {
  const Json json = parse_history_object(
      text, source, "The batch is damaged; measure the plan again into a new folder");
  JsonObjectReader reader(json, source, "");
  BatchStatus status;
  status.run = reader.string("run");
  status.attempt = static_cast<int>(reader.integer("attempt"));
  status.started_at = reader.string("started_at");
  status.finished_at = reader.optional_string("finished_at").value_or("");
  status.complete = reader.boolean("complete");
  status.interrupted = reader.optional_string("interrupted").value_or("");
  for (const Json& id : reader.array("attempts")) {
    if (id.is_string()) status.attempts.push_back(id.get<std::string>());
  }
  status.environment = reader.optional_string("environment").value_or("");
  status.setup = reader.optional_string("setup").value_or("");
  if (json.contains("measuring")) {
    for (const Json& id : reader.array("measuring")) {
      if (id.is_string()) status.measuring.push_back(id.get<std::string>());
    }
  }
  return status;
}

}  // namespace

Json to_json(const BatchStatus& status) {
  return {{"schema_version", kHistorySchemaVersion},
          {"kind", "perfgate-history-batch"},
          {"run", status.run},
          {"attempt", status.attempt},
          {"started_at", status.started_at},
          {"finished_at", status.finished_at.empty() ? Json(nullptr) : Json(status.finished_at)},
          {"complete", status.complete},
          {"interrupted", status.interrupted.empty() ? Json(nullptr) : Json(status.interrupted)},
          {"attempts", status.attempts},
          {"environment", status.environment},
          {"setup", status.setup},
          {"measuring", status.measuring}};
}

Batch read_batch(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    throw Error(ExitCode::kNoInput, "--batch: " + folder.string() +
                                        ": no such folder. Name the folder 'perfgate history "
                                        "measure -o' wrote");
  }
  Batch batch;
  batch.folder = folder;
  const auto plan = read_text(folder / "plan.json");
  if (!plan) {
    throw Error(ExitCode::kNoInput, (folder / "plan.json").string() +
                                        ": not found. This is not a batch folder written by "
                                        "'perfgate history measure'");
  }
  batch.plan_text = *plan;
  batch.plan = read_plan_file(*plan, (folder / "plan.json").string());
  if (const auto status = read_text(folder / "batch.json")) {
    batch.status = read_status(*status, (folder / "batch.json").string());
  }
  std::vector<fs::path> files;
  for (fs::directory_iterator it(folder / "attempts", ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".json" && it->path().filename().string()[0] != '.') {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string source = file.string();
    try {
      const auto text = read_text(file);
      if (!text) throw Error(ExitCode::kIoError, source + ": cannot read");
      HistoryAttempt attempt = read_attempt(*text, source);
      if (attempt.identity.text() != file.stem().string()) {
        throw Error(ExitCode::kDataError, source + ": holds attempt " + attempt.identity.text() +
                                              ", not the one its name says. Restore the file");
      }
      batch.attempts.push_back({std::move(attempt), *text});
    } catch (const Error& error) {
      batch.rejected[source] = error.what();
    }
  }
  return batch;
}

std::map<std::string, std::string> read_raw_files(const Batch& batch,
                                                  const HistoryAttempt& attempt) {
  std::map<std::string, std::string> files;
  // The identity, not the file's raw_path, names the folder: a file cannot point elsewhere.
  const fs::path root = batch.folder / "raw" / attempt.identity.text();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string relative = fs::relative(it->path(), batch.folder, ec).generic_string();
    const auto text = read_text(it->path());
    if (!text) {
      throw Error(ExitCode::kIoError,
                  it->path().string() + ": cannot read. Check the batch folder's permissions");
    }
    files[relative] = *text;
  }
  return files;
}

}  // namespace perfgate::history
