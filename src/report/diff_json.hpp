#pragma once
// `perfgate diff --format json`: every compared state with its decision, estimates and
// reason, the counts, the effective configuration and the warnings. Stable keys, so
// scripts can read it.
#include <string>

#include "diff/diff_config.hpp"
#include "diff/diff_run.hpp"
#include "model/json.hpp"

namespace perfgate {

inline constexpr int kDiffJsonSchemaVersion = 1;

/// The document as text, exactly as nlohmann's dump(2) would write it (sorted keys, two-space
/// indents), written straight from the outcome: a tree of JSON nodes for thousands of
/// states cost three times as much as deciding them.
std::string diff_json_text(const diff::DiffOutcome& outcome, const diff::DiffConfig& config,
                           const std::string& reference_path, const std::string& compare_path,
                           double threshold);

/// The same document, parsed: for callers that add to it (a diff of two folders).
Json diff_to_json(const diff::DiffOutcome& outcome, const diff::DiffConfig& config,
                  const std::string& reference_path, const std::string& compare_path,
                  double threshold);

}  // namespace perfgate
