#pragma once
// What `compare --confirm` changed, a line per confirmed record: the first verdict, the
// verdict on all the samples, and each deciding metric's change before and after.
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// "sort[n=1000]: REGRESSION not confirmed by 5 more runs (10 in all): now PASS; latency
/// +9.0% worse (95%: …) → +0.8% worse (95%: …)", for each record whose
/// quality_metadata.confirmation says it was confirmed; none for the others.
std::vector<std::string> confirmation_lines(const std::vector<NormalizedRecord>& records);

/// The outcome word of a confirmation: "confirmed", "not confirmed", or for an
/// INCONCLUSIVE first verdict "resolved" / "still inconclusive".
std::string confirmation_outcome(const std::string& first_status, const std::string& final_status);

}  // namespace perfgate
