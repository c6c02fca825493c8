#pragma once
// The runs an attempt measured, read back from its raw records in the archive
// (raw/<id>/results/perf_*.json): what a flag's confirmation pairs round by round.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/archive.hpp"
#include "history/history_attempt.hpp"
#include "model/json.hpp"

namespace perfgate::history {

/// Reads each attempt's raw records once, the first time one of its cases is asked for (a
/// flag asks for each of its metrics, and an attempt may hold many cases). Not for several
/// threads at once.
class RawRuns {
 public:
  explicit RawRuns(std::shared_ptr<const ArchiveSnapshot> snapshot)
      : snapshot_(std::move(snapshot)) {}

  /// The samples of `metric` in the raw record of `case_name` (its benchmark_id) among the
  /// attempt's raw records, in the order they were measured; nullopt when there is no such
  /// record or metric, or its file cannot be read or parsed: the confirmation then falls
  /// back to the points' medians and MADs, and a damaged raw file never decides a flag.
  std::optional<std::vector<double>> samples(const HistoryAttempt& attempt,
                                             const std::string& case_name,
                                             const std::string& metric);

 private:
  /// Each case's "metrics" object among the records in `raw_path`, by benchmark_id; a file
  /// that cannot be read or parsed, or that names no case, is left out.
  std::map<std::string, Json> read_records(const std::string& raw_path) const;

  std::shared_ptr<const ArchiveSnapshot> snapshot_;
  std::map<std::string, std::map<std::string, Json>> records_;  ///< by raw_path, then case
};

}  // namespace perfgate::history
