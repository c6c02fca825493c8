#pragma once
// The core of `perfgate compare` and `perfgate import`: normalise a batch of raw records,
// then judge each against its cohort's history. Pure: raw records and histories in,
// verdicts out. The command reads the files, fetches the histories from the store
// (store/cohort_history.hpp) and stores what the upload policy selects.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gate/comparison_status.hpp"
#include "model/cohort_history.hpp"
#include "model/json.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// One raw record of the batch, in perfgate's raw layout (a seed-layout record is converted
/// by ingest before it gets here).
struct RawInput {
  std::string path;    ///< for messages, and the benchmark name of a record that cannot be read
  Json raw;            ///< the raw record as read; null when the file is not JSON
  std::string sha256;  ///< the measurement's identity: digest of the raw record's bytes
  /// Why the file could not be read as a raw record at all (not JSON, not a record);
  /// "" when it could. Such an input becomes an INFRA_ERROR record.
  std::string unreadable;
};

struct BatchOptions {
  std::map<std::string, MetricPolicy> project_policies;
  std::vector<std::string> trusted_run_sources = {"scheduled_main"};
  std::optional<int> run_rc;
  /// Replaces the run source recorded by `run` (e.g. --run-source scheduled_main).
  std::optional<std::string> run_source;
  /// The timestamp given to a record whose raw record cannot be read.
  std::string now;
  /// How metrics are compared (and which absolute floors apply by default). compare
  /// defaults to kStat unless the project chooses; kSeed is seed 000's rule.
  CompareMethod method = CompareMethod::kSeed;
};

/// A record of the batch, normalised but not yet judged.
struct PendingRecord {
  NormalizedRecord record;
  ClassificationInputs inputs;  ///< the raw record's own outcome; judging adds the history
  /// Why the raw record is malformed ("" when it is not): the record becomes INFRA_ERROR
  /// with this reason, is never stored and never joins a baseline.
  std::string malformed;
};

/// Normalises every raw record, in input order. A malformed raw record does not stop the
/// batch: it becomes a pending record with `malformed` set, named after its benchmark_id
/// when the raw record has a readable one, else after its file.
std::vector<PendingRecord> normalize_batch(const std::vector<RawInput>& inputs,
                                           const BatchOptions& options);

/// Classifies every pending record against the history of its cohort (a cohort missing
/// from `histories` has none). A record with no measured metric is INFRA_ERROR. In order.
std::vector<NormalizedRecord> judge_batch(const std::vector<PendingRecord>& pending,
                                          const CohortHistories& histories,
                                          const BatchOptions& options);

}  // namespace perfgate
