#include "report/history_freshness.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>

#include "model/error.hpp"
#include "model/instant.hpp"
#include "model/visible_text.hpp"

namespace perfgate {

HistoryProvenance history_provenance(const std::string& text) {
  HistoryProvenance out;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text).get(root) != simdjson::SUCCESS) return out;
  std::string_view sha;
  if (root["source_sha"].get(sha) == simdjson::SUCCESS) out.source_sha = std::string(sha);
  simdjson::dom::array attempts;
  if (root["attempts"].get(attempts) != simdjson::SUCCESS) return out;
  for (const simdjson::dom::element attempt : attempts) {
    std::string_view started;
    if (attempt["started_at"].get(started) != simdjson::SUCCESS) continue;
    const std::optional<std::int64_t> instant = parse_instant_us(started);
    if (!instant) continue;
    if (!out.newest_started_us || *instant > *out.newest_started_us) {
      out.newest_started_us = instant;
      out.newest_started_at = std::string(started);
    }
  }
  return out;
}

void check_history_source(const HistoryProvenance& provenance, const std::string& expected,
                          const std::string& path) {
  std::string wanted = expected;
  std::transform(wanted.begin(), wanted.end(), wanted.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool hex = wanted.size() >= 7 && wanted.size() <= 64 &&
                   std::all_of(wanted.begin(), wanted.end(),
                               [](unsigned char c) { return std::isxdigit(c) != 0; });
  if (!hex)
    throw Error(ExitCode::kUsage, "--expect-source " + visible_text(expected.substr(0, 80)) +
                                      ": not a commit SHA (7 to 64 hex digits). Pass the "
                                      "checkout's own, e.g. --expect-source \"$(git rev-parse "
                                      "HEAD)\".");
  if (provenance.source_sha.rfind(wanted, 0) == 0) return;
  throw Error(ExitCode::kDataError,
              path + ": exported from " +
                  (provenance.source_sha.empty() ? std::string("an unknown source (no source_sha)")
                                                 : visible_text(provenance.source_sha)) +
                  ", not from " + visible_text(expected) +
                  ": a site must publish the export of its own checkout (a stale or foreign "
                  "export is refused). Export again in this checkout (perfgate history export "
                  "-o history.json), then build the site.");
}

std::optional<std::string> staleness_warning(const HistoryProvenance& provenance, int days,
                                             std::int64_t now_us, const std::string& path) {
  if (!provenance.newest_started_us)
    return path + ": holds no attempt with a start time: nothing has been measured yet.";
  constexpr std::int64_t kDayUs = 86'400'000'000;
  const std::int64_t age = now_us - *provenance.newest_started_us;
  if (age <= static_cast<std::int64_t>(days) * kDayUs) return std::nullopt;
  return path + ": its newest attempt started " + visible_text(*provenance.newest_started_at) +
         ", " + std::to_string(age / kDayUs) + " days ago (more than --stale-after " +
         std::to_string(days) +
         "): the history has stopped growing. Check that the measuring job still runs and "
         "publishes.";
}

}  // namespace perfgate
