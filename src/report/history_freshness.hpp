#pragma once
// Seed 003's two checks of a site build: it publishes the export of its own source (a site
// built from another checkout's history.json, or an older one, is refused), and it says
// when the newest measurement is old (a nightly that stopped measuring still publishes a
// site that looks current).
#include <cstdint>
#include <optional>
#include <string>

namespace perfgate {

struct HistoryProvenance {
  std::string source_sha;                         ///< the checkout that exported
  std::optional<std::string> newest_started_at;   ///< the newest attempt's start, as written
  std::optional<std::int64_t> newest_started_us;  ///< the same instant, since the epoch
};

/// Reads them from a history.json already checked by check_history_document.
HistoryProvenance history_provenance(const std::string& text);

/// Error(kDataError) unless the export's source_sha is `expected` (a full SHA, or a prefix
/// of at least 7 hex digits): the message names both and the fix.
void check_history_source(const HistoryProvenance& provenance, const std::string& expected,
                          const std::string& path);

/// A warning when the newest attempt started more than `days` days before `now_us`, or
/// when the export holds no attempt; nullopt when it is fresh.
std::optional<std::string> staleness_warning(const HistoryProvenance& provenance, int days,
                                             std::int64_t now_us, const std::string& path);

}  // namespace perfgate
