#pragma once
// Record timestamps as instants. Records arrive with ISO 8601 text in many forms
// ("2026-05-08T22:00:00+09:00", "…Z", "… 22:00:00.5+00:00"); "the last five records" means
// the five newest instants, which text order gets wrong as soon as two forms or two offsets
// meet. Timestamps are normalised to UTC text on the way in, and ordered by instant.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

/// Microseconds since 1970-01-01T00:00:00Z of an ISO 8601 date-time: YYYY-MM-DD, then 'T'
/// or ' ', hh:mm[:ss[.fraction]], then 'Z', '+hh:mm', '-hh:mm', '+hhmm' or nothing (taken as
/// UTC). A bare date is its midnight UTC. nullopt for anything else, including impossible
/// dates and times (2026-02-30, 24:00:01).
std::optional<std::int64_t> parse_instant_us(std::string_view text);

/// The same instant as UTC text: "2026-05-08T13:00:00Z", with the fraction kept when it is
/// not zero ("…:00.5Z", at most six digits). nullopt when parse_instant_us fails.
std::optional<std::string> normalize_utc_timestamp(std::string_view text);

/// Orders two record timestamps by instant (newest last); text that is not an instant
/// sorts before every instant, by its text. For sorting stored records.
bool instant_before(const std::string& a, const std::string& b);

}  // namespace perfgate
