#pragma once
// Attempt files read by the ten thousand (an export): straight from simdjson's DOM into a
// HistoryAttempt, without building a JSON tree of the whole file first. It takes only the
// happy path: on anything the strict reader would reject, and on anything unusual (an
// integer beyond int, a case name twice), it gives up, and read_attempt_strict reads the
// file and names every reason. So both readers agree on every file; the fuzzer checks it.
#include <optional>
#include <string_view>

#include "history/history_attempt.hpp"

namespace perfgate::history {

/// The attempt in `text` when it is valid, or nullopt (for the strict reader to explain).
/// Safe to call from several threads at once.
std::optional<HistoryAttempt> read_valid_attempt_fast(std::string_view text);

}  // namespace perfgate::history
