#pragma once
// The core of `perfgate compare`: normalise a batch of raw records and judge each against
// its cohort's rolling baseline in a store. No files, no printing: values in, values out.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/normalized_record.hpp"
#include "store/store.hpp"

namespace perfgate {

struct RawInput {
  std::string path;    ///< for messages
  Json raw;            ///< the raw record as read
  std::string sha256;  ///< digest of the file's bytes
};

struct BatchOptions {
  std::map<std::string, MetricPolicy> project_policies;
  std::vector<std::string> trusted_run_sources = {"scheduled_main"};
  std::optional<int> run_rc;
  /// Replaces the run source recorded by `run` (e.g. --run-source scheduled_main).
  std::optional<std::string> run_source;
};

/// Normalises and classifies every raw record, in input order. Baselines and other
/// trusted recipes come from `store` (read only). Error(kDataError) for a malformed raw
/// record, naming its file.
std::vector<NormalizedRecord> compare_batch(const std::vector<RawInput>& inputs, Store& store,
                                            const BatchOptions& options);

}  // namespace perfgate
