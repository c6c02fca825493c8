#pragma once
// `perfgate history bisect` (docs/bisect.md): the range to bisect, read from an export
// (history.json, docs/history-json.md): a series' change point, or a flag. Pure.
#include <optional>
#include <string>

#include "model/json.hpp"

namespace perfgate::bisect {

/// Points added on each side of a change point: on a noisy series the point a change is
/// found at may be a commit or two off the commit that made it.
inline constexpr int kChangeMargin = 2;

struct ExportRange {
  std::string good;  ///< SHA
  std::string bad;   ///< SHA
  std::string case_name;
  std::string metric;
};

/// The range of series `series_id`'s change number `change` (1 for the oldest), widened by
/// kChangeMargin points each side; or of the flag at commit `flag` (a SHA or a prefix of at
/// least 7 digits): the flag's previous point to the flag. Error(kDataError) naming what is
/// missing (no such series, change or flag) with the ones there are.
ExportRange range_from_export(const Json& history, const std::string& series_id,
                              std::optional<int> change, const std::string& flag);

}  // namespace perfgate::bisect
