// history export: the archive, validated file by file, as history.json.
#include <algorithm>
#include <memory>
#include <thread>

#include "history/commit_measurement.hpp"
#include "history/history_export.hpp"
#include "history/history_steps.hpp"
#include "history/ledger.hpp"
#include "history/raw_runs.hpp"
#include "model/error.hpp"
#include "model/parallel_for.hpp"

namespace perfgate::history {

ExportInput gather_export_input(const HistorySetup& setup, const std::string& perfgate_version) {
  const Archive& archive = *setup.archive;
  if (!archive.exists()) {
    throw Error(ExitCode::kNoInput, archive.url() +
                                        ": the archive does not exist. Check --archive, or "
                                        "publish a batch first ('perfgate history publish')");
  }
  // Shared with run_samples, which reads raw records while the export is written.
  const std::shared_ptr<const ArchiveSnapshot> snapshot = archive.snapshot();
  const auto ledger_text = snapshot->read("plan.json");
  if (!ledger_text) {
    throw Error(ExitCode::kDataError, archive.url() +
                                          "/plan.json: not found. The archive holds no ledger; "
                                          "restore it from the archive's history");
  }
  ExportInput input;
  input.source_sha = setup.repository->resolve("HEAD").value_or("");
  input.branch = setup.config.branch;
  input.archive = archive.url();
  input.generated_at = utc_now_with_microseconds();
  input.perfgate_version = perfgate_version;
  input.ledger = read_ledger(*ledger_text, archive.url() + "/plan.json");
  input.flags = setup.config.flags;
  input.commit_url = setup.config.commit_url;
  input.raw_url = setup.config.raw_url;
  input.run_samples = [runs = std::make_shared<RawRuns>(snapshot)](const HistoryAttempt& attempt,
                                                                   const std::string& case_name,
                                                                   const std::string& metric) {
    return runs->samples(attempt, case_name, metric);
  };
  const std::vector<std::string> names = snapshot->list("attempts");
  input.attempts.reserve(names.size());
  // Parsing is most of an export's time, so attempts are validated on every core. A folder
  // is read by the same threads; a git branch reads through one repository object, which
  // is not shared between threads, so its files are read first, a block at a time.
  constexpr std::size_t kBlock = 512;
  const bool parallel_reads = snapshot->reads_in_parallel();
  std::vector<std::optional<std::string>> texts;
  std::vector<std::optional<HistoryAttempt>> parsed;
  std::vector<std::optional<RejectedAttempt>> refused;
  for (std::size_t start = 0; start < names.size(); start += kBlock) {
    const std::size_t count = std::min(kBlock, names.size() - start);
    texts.assign(count, std::nullopt);
    parsed.assign(count, std::nullopt);
    refused.assign(count, std::nullopt);
    if (!parallel_reads) {
      for (std::size_t i = 0; i < count; ++i) {
        texts[i] = snapshot->read("attempts/" + names[start + i]);
      }
    }
    parallel_for(count, [&](std::size_t i) {
      const std::string& name = names[start + i];
      const std::string path = "attempts/" + name;
      const std::string stem = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0
                                   ? name.substr(0, name.size() - 5)
                                   : name;
      try {
        if (parallel_reads) texts[i] = snapshot->read(path);
        if (!texts[i]) {
          throw Error(ExitCode::kIoError, archive.url() + "/" + path + ": cannot read");
        }
        HistoryAttempt attempt = read_attempt(*texts[i], archive.url() + "/" + path);
        texts[i].reset();
        if (attempt.identity.text() != stem) {
          throw Error(ExitCode::kDataError, archive.url() + "/" + path + ": holds attempt " +
                                                attempt.identity.text() +
                                                ", not the one its name says");
        }
        parsed[i] = std::move(attempt);
      } catch (const std::exception& error) {
        // Error, or a file so hostile that the JSON library itself gave up: either way it
        // is listed as rejected, never used, and never ends the export.
        refused[i] = RejectedAttempt{parse_attempt_identity(stem) ? stem : "", path, error.what()};
      }
    });
    for (std::size_t i = 0; i < count; ++i) {
      if (parsed[i]) input.attempts.push_back(std::move(*parsed[i]));
      if (refused[i]) input.rejected.push_back(std::move(*refused[i]));
    }
  }
  for (const std::string& sha : input.ledger.monitored) {
    try {
      input.commits.emplace(sha, setup.repository->commit(sha));
    } catch (const Error&) {
      // Not in this clone (a shallow fetch): the export says so with a null time.
    }
  }
  return input;
}

ExportSummary export_archive(const HistorySetup& setup, const std::string& perfgate_version,
                             const std::function<void(const std::string&)>& deliver) {
  ExportInput input = gather_export_input(setup, perfgate_version);
  std::string text;
  const ExportSummary summary = write_history(input, text);
  // The attempts are a million small allocations, slow to free one by one: they are freed
  // on another core while the document is written out.
  std::thread release([attempts = std::move(input.attempts)]() mutable {
    std::vector<HistoryAttempt> freed = std::move(attempts);
  });
  try {
    deliver(text);
  } catch (...) {
    release.join();
    throw;
  }
  release.join();
  return summary;
}

}  // namespace perfgate::history
