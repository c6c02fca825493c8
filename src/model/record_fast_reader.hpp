#pragma once
// Stored records read by the hundred thousand (a dashboard of a whole store): the JSON of
// a current (version 3) normalised record straight from simdjson's DOM into a
// NormalizedRecord, without building a JSON tree first. It takes only the happy path: on
// anything normalized_record_from_json would reject, on a legacy layout and on anything
// unusual (an integer beyond int64), it gives up, and the strict reader reads the text and
// names every reason. So both readers agree on every text; the fuzzer checks it.
#include <optional>
#include <string>
#include <string_view>

#include "model/normalized_record.hpp"

namespace perfgate {

/// The record whose content (its JSON without record_id, as a store keeps it) is `content`
/// and whose id is `record_id`, when it is a valid version 3 record; nullopt otherwise. A
/// record_id inside the content is ignored, as the stores' strict path overrides it. Safe
/// to call from several threads at once.
std::optional<NormalizedRecord> read_current_record_fast(std::string_view content,
                                                         std::string record_id);

}  // namespace perfgate
