#include "gate/baseline_selection.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/fingerprint.hpp"
#include "model/instant.hpp"

namespace perfgate {
namespace {

constexpr std::size_t kBaselineSize = 5;  ///< SPEC §6: the median of the last five

std::string batch_label(const std::string& batch) {
  if (batch.empty()) return "no commit or build";
  // "commit <sha>": the first 12 hex digits, as everywhere else.
  if (batch.rfind("commit ", 0) == 0) return batch.substr(0, 7 + 12);
  return batch;
}

std::string short_id(const ManifestEntry& entry) {
  return entry.benchmark_id + " (" + entry.record_id.substr(0, 12) + ")";
}

struct Batch {
  std::string newest_timestamp;
  std::size_t count = 0;
  std::size_t first_seen = 0;  ///< position of its first record, to break timestamp ties
};

/// The batch whose newest record is the newest; among equals, the one listed first
/// (stores list newest first).
std::string newest_batch(const std::map<std::string, Batch>& batches) {
  const auto newest = std::max_element(batches.begin(), batches.end(), [](auto& a, auto& b) {
    if (a.second.newest_timestamp != b.second.newest_timestamp)
      return a.second.newest_timestamp < b.second.newest_timestamp;
    return a.second.first_seen > b.second.first_seen;
  });
  return newest->first;
}

}  // namespace

bool qualifies_for_seeding(const StoredRecord& stored, SeedMode mode,
                           const std::vector<std::string>& trusted_run_sources) {
  const NormalizedRecord& r = stored.record;
  const bool status_fits = mode == SeedMode::kCalibration
                               ? r.comparison_status == kCalibrationNeeded
                               : r.comparison_status == kPass ||
                                     r.comparison_status == kRegression ||
                                     r.comparison_status == kInconclusive;
  return status_fits && r.success && !stored.eligible && r.cohort().has_value() &&
         std::find(trusted_run_sources.begin(), trusted_run_sources.end(), r.run_source) !=
             trusted_run_sources.end();
}

std::string batch_of(const NormalizedRecord& record) {
  if (record.commit_sha && !record.commit_sha->empty()) return "commit " + *record.commit_sha;
  if (record.build_id && !record.build_id->empty()) return "build " + *record.build_id;
  return "";
}

SeedSelection select_seed_records(const std::vector<StoredRecord>& records, SeedMode mode,
                                  const std::vector<std::string>& trusted_run_sources,
                                  bool allow_mixed_batches) {
  std::vector<const StoredRecord*> candidates;
  std::map<std::string, std::map<std::string, Batch>> batches;  // by cohort, by batch
  std::map<std::string, std::size_t> untrusted;
  for (const auto& stored : records) {
    if (!qualifies_for_seeding(stored, mode, trusted_run_sources)) {
      if (qualifies_for_seeding(stored, mode, {stored.record.run_source})) {
        ++untrusted[stored.record.run_source];
      }
      continue;
    }
    Batch& batch = batches[stored.record.cohort()->to_string()][batch_of(stored.record)];
    if (batch.count++ == 0) batch.first_seen = candidates.size();
    batch.newest_timestamp = std::max(batch.newest_timestamp, stored.record.timestamp);
    candidates.push_back(&stored);
  }

  SeedSelection selection;
  selection.untrusted_sources = std::move(untrusted);
  std::map<std::string, std::string> kept;  // cohort -> the batch it keeps
  for (const auto& [cohort, of_cohort] : batches) {
    if (of_cohort.size() > 1 && !allow_mixed_batches) {
      kept[cohort] = newest_batch(of_cohort);
      const std::size_t seeded = of_cohort.at(kept[cohort]).count;
      std::string left_out;
      for (const auto& [batch, info] : of_cohort) {
        if (batch == kept[cohort]) continue;
        left_out += (left_out.empty() ? "" : ", ") + batch_label(batch) + " (" +
                    std::to_string(info.count) + ")";
      }
      selection.notes.push_back("cohort " + cohort + ": kept the " + std::to_string(seeded) +
                                " record(s) of the newest batch, " + batch_label(kept[cohort]) +
                                "; left out " + left_out +
                                ". Pass --allow-mixed-commits to seed them together");
    }
  }
  for (const StoredRecord* stored : candidates) {
    const std::string cohort = stored->record.cohort()->to_string();
    const auto keep = kept.find(cohort);
    if (keep == kept.end() || keep->second == batch_of(stored->record)) {
      selection.records.push_back(*stored);
    }
  }
  return selection;
}

bool reseed_sets_median(std::size_t reseeded, std::size_t eligible) {
  // The baseline is the last five eligible records; the re-seeded ones are the newest.
  const std::size_t older_kept =
      std::min(eligible, kBaselineSize - std::min(reseeded, kBaselineSize));
  return reseeded > older_kept;
}

std::vector<std::string> one_moment_notes(const std::vector<StoredRecord>& records) {
  struct Span {
    std::size_t count = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
    bool timed = true;  ///< every record's timestamp is an instant
  };
  std::map<std::string, Span> spans;  // by cohort
  for (const StoredRecord& stored : records) {
    const auto cohort = stored.record.cohort();
    if (!cohort) continue;
    Span& span = spans[cohort->to_string()];
    const std::optional<std::int64_t> at = parse_instant_us(stored.record.timestamp);
    if (!at) {
      span.timed = false;
      continue;
    }
    span.first = span.count == 0 ? *at : std::min(span.first, *at);
    span.last = span.count == 0 ? *at : std::max(span.last, *at);
    ++span.count;
  }
  std::vector<std::string> notes;
  for (const auto& [cohort, span] : spans) {
    if (!span.timed || span.count < 2 || span.last - span.first >= kOneMomentUs) continue;
    const std::int64_t seconds = (span.last - span.first + 999'999) / 1'000'000;
    notes.push_back(
        "cohort " + cohort + ": its " + std::to_string(span.count) + " record(s) were measured " +
        (seconds == 0 ? std::string("in the same second")
                      : "within " + std::to_string(seconds) + " s of one another") +
        ", one moment of this machine. --method stat takes their scatter for all the noise "
        "between records, and a record measured minutes later may differ by more. Seed from "
        "runs minutes apart or from several CI builds, or confirm verdicts (compare --confirm "
        "N)");
  }
  return notes;
}

std::vector<std::string> manifest_problems(const BaselineManifest& manifest,
                                           const std::vector<StoredRecord>& current,
                                           const std::vector<std::string>& trusted_run_sources) {
  std::map<std::string, const StoredRecord*> by_id;
  for (const auto& stored : current) by_id[stored.record.record_id] = &stored;
  std::vector<std::string> problems;
  if (manifest.records.empty()) problems.push_back("the manifest lists no records");
  std::map<std::string, std::set<std::string>> batches;  // by cohort
  for (const auto& entry : manifest.records) {
    const auto it = by_id.find(entry.record_id);
    if (it == by_id.end()) {
      problems.push_back(short_id(entry) + ": no longer in the store");
      continue;
    }
    const StoredRecord& stored = *it->second;
    batches[entry.cohort].insert(batch_of(stored.record));
    if (fingerprint(to_json(stored.record)) != entry.record_sha256) {
      problems.push_back(short_id(entry) + ": content changed since prepare");
    } else if (stored.eligible) {
      problems.push_back(short_id(entry) + ": already eligible");
    } else if (!qualifies_for_seeding(stored, manifest.mode, trusted_run_sources)) {
      problems.push_back(
          short_id(entry) +
          (manifest.mode == SeedMode::kCalibration
               ? ": no longer qualifies (needs CALIBRATION_NEEDED, success and a trusted run "
                 "source)"
               : ": no longer qualifies for a re-seed (needs PASS or REGRESSION, success and a "
                 "trusted run source)"));
    }
  }
  if (!manifest.mixed_batches_allowed) {
    for (const auto& [cohort, of_cohort] : batches) {
      if (of_cohort.size() < 2) continue;
      std::string listed;
      for (const auto& batch : of_cohort)
        listed += (listed.empty() ? "" : ", ") + batch_label(batch);
      problems.push_back("cohort " + cohort + ": records of " + std::to_string(of_cohort.size()) +
                         " batches (" + listed + ") but the manifest allows one");
    }
  }
  return problems;
}

}  // namespace perfgate
