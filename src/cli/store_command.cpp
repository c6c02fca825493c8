#include "cli/store_command.hpp"

#include <cstdio>
#include <iostream>

#include "cli/project_lookup.hpp"
#include "cli/terminal.hpp"
#include "model/error.hpp"
#include "model/json.hpp"
#include "store/postgres_url.hpp"
#include "store/store.hpp"
#include "store/store_copy.hpp"
#include "store/stored_rows.hpp"

namespace perfgate {

StoreCommands add_store_command(CLI::App& app, StoreCopyOptions& options) {
  CLI::App* store =
      app.add_subcommand("store", "Work on a store as a whole: copy it, or check every record");
  store->require_subcommand(1);
  store->footer(
      "Examples:\n"
      "  perfgate store copy sqlite:.perfgate/perfgate.db postgresql://perf@db.internal/perf\n"
      "  perfgate store check\n\n"
      "Exit status: see 'perfgate store copy --help' and 'perfgate store check --help'.");
  CLI::App* copy = store->add_subcommand(
      "copy", "Copy every attempt and approval of one store into another, then verify them");
  copy->add_option("SRC", options.source, "Store to copy from; it must exist")->required();
  copy->add_option("DST", options.destination,
                   "Store to copy into; created when missing (a PostgreSQL database must exist)")
      ->required();
  copy->add_flag("--json", options.json, "Print what was copied as JSON");
  copy->add_flag("--no-progress", options.no_progress, "No progress line on standard error");
  copy->footer(
      "Examples:\n"
      "  perfgate store copy sqlite:.perfgate/perfgate.db postgresql://perf@db.internal/perf\n"
      "  perfgate store copy postgresql://perf@db.internal/perf sqlite:backup.db --json\n"
      "  perfgate store copy dir:perf-store sqlite:.perfgate/perfgate.db\n\n"
      "Attempts keep their ids and their records' order, so running the same copy again\n"
      "changes nothing, and an interrupted copy is finished by running it again. Each\n"
      "attempt's ids (digests of its content) are checked as it is written, and at the end\n"
      "every attempt is read back from DST and compared with SRC's.\n"
      "A password never goes in a URL: libpq reads it from ~/.pgpass, PGPASSFILE or\n"
      "PGPASSWORD.\n\n"
      "Exit status: 0 copied and verified; 64 bad flag or URL; 65 an attempt that does not\n"
      "check against its content, or DST holds other content under the same id; 66 SRC not\n"
      "found; 74 a store cannot be read or written.");
  CLI::App* check = store->add_subcommand(
      "check",
      "Read every record of a store and list each one whose content no longer "
      "matches its id");
  check->add_option("--store", options.check_store,
                    "Store to check (default: $PERFGATE_STORE, else the project's store)");
  check->add_flag("--json", options.json, "Print the damaged records as JSON");
  check->footer(
      "Examples:\n"
      "  perfgate store check\n"
      "  perfgate store check --store postgresql://perf@db.internal/perf --json\n\n"
      "Each record's id is the SHA-256 of its content, so a changed byte shows. Every other\n"
      "command leaves a damaged record out with a warning and reads the rest.\n\n"
      "Exit status: 0 no record is damaged; 65 some are (each is listed with its attempt),\n"
      "or the store cannot be read as a store; 66 the store does not exist; 74 it cannot be\n"
      "read.");
  return {store, copy, check};
}

int execute_store_check(const StoreCopyOptions& options) {
  const ProjectConfig project = project_for("", std::filesystem::current_path());
  const auto store = open_existing_store(project_store_url(options.check_store, project));
  const std::size_t records = store->list_records(RecordFilter{}).size();
  std::vector<DamagedRecord> damaged;
  for (const auto& record : damaged_records_seen()) {
    if (record.store == store->url()) damaged.push_back(record);
  }
  if (options.json) {
    Json list = Json::array();
    for (const auto& record : damaged) {
      Json entry = {{"record_id", record.record_id}, {"attempt_id", record.attempt_id}};
      if (!record.why.empty()) entry["why"] = record.why;
      list.push_back(std::move(entry));
    }
    std::cout << Json{{"store", store->url()}, {"records_intact", records}, {"damaged", list}}.dump(
                     2)
              << "\n";
  } else if (damaged.empty()) {
    std::cout << store->url() << ": " << records << " record(s) checked, none damaged\n";
  } else {
    std::cout << store->url() << ": " << damaged.size() << " damaged record(s), " << records
              << " intact:\n";
    for (const auto& record : damaged) {
      if (record.record_id.empty()) {
        std::cout << "  attempt " << record.attempt_id << ": " << record.why << "\n";
      } else {
        std::cout << "  record " << record.record_id << " of attempt " << record.attempt_id
                  << (record.why.empty() ? "" : ": " + record.why) << "\n";
      }
    }
  }
  return static_cast<int>(damaged.empty() ? ExitCode::kOk : ExitCode::kDataError);
}

int execute_store_copy(const StoreCopyOptions& options) {
  if (!store_exists(options.source)) {
    throw Error(ExitCode::kNoInput,
                "SRC " +
                    (is_postgres_url(options.source) ? redact_postgres_url(options.source)
                                                     : options.source) +
                    " does not exist (or holds no perfgate store). Check the URL: store copy "
                    "reads an existing store and creates only DST");
  }
  const auto source = open_existing_store(options.source);
  const auto destination = open_store(options.destination);
  const bool show_progress = !options.no_progress && stderr_is_terminal();
  const auto progress = [&](std::size_t done, std::size_t total) {
    if (show_progress && (done == total || done % 50 == 0)) {
      std::fprintf(stderr, "\r\033[Kcopying attempts: %zu/%zu", done, total);
      if (done == total) std::fputs("\r\033[K", stderr);
      std::fflush(stderr);
    }
  };
  const StoreCopyOutcome outcome = copy_store(*source, *destination, progress);
  if (options.json) {
    const Json json = {
        {"source", source->url()},        {"destination", destination->url()},
        {"attempts", outcome.attempts},   {"attempts_copied", outcome.attempts_copied},
        {"records", outcome.records},     {"records_copied", outcome.records_copied},
        {"approvals", outcome.approvals}, {"approvals_copied", outcome.approvals_copied},
        {"verified", outcome.verified}};
    std::cout << json.dump(2) << "\n";
    return 0;
  }
  std::cout << "copied " << source->url() << " into " << destination->url() << "\n"
            << "  attempts   " << outcome.attempts << " (" << outcome.attempts_copied << " copied, "
            << outcome.attempts - outcome.attempts_copied << " already there)\n"
            << "  records    " << outcome.records << " (" << outcome.records_copied << " copied)\n"
            << "  approvals  " << outcome.approvals << " (" << outcome.approvals_copied
            << " copied)\n"
            << "  verified   " << outcome.verified
            << " attempts read back from the destination, equal to the source's\n";
  return 0;
}

}  // namespace perfgate
