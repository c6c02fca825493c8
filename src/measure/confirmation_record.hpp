#pragma once
// A confirmation (`compare --confirm N`, docs/compare.md "Confirmation"): a state judged
// REGRESSION or INCONCLUSIVE is measured again, N runs in fresh processes, and judged on
// all its samples. The record judged is the first raw record with the new runs appended;
// it is written to <run folder>/confirm/ and says which record it confirms, so that a
// repeated compare judges it again instead of measuring a third time.
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/raw_record.hpp"

namespace perfgate {

/// A metric of the first judgment that called for the confirmation.
struct FirstEvidence {
  std::string metric;
  std::string change;  ///< as the table showed it: "+9.0% worse (95%: +6.5% to +11.6%)"
};

/// The raw record being confirmed and what its first judgment said.
struct ConfirmationSubject {
  Json raw;                  ///< the raw record as read
  std::string path;          ///< its file
  std::string sha256;        ///< digest of its bytes: the measurement's identity
  std::string first_status;  ///< REGRESSION or INCONCLUSIVE
  std::vector<FirstEvidence> evidence;
};

/// `subject.raw` with the confirmation's measured runs and samples appended, each metric's
/// summary recomputed over all its samples, and quality_metadata.confirmation describing
/// what was confirmed and why. Error(kDataError) naming the metric when the confirmation
/// lacks a metric the first record measured, or when it failed.
Json merge_confirmation(const ConfirmationSubject& subject, const RawRecord& confirmation);

/// The raw record a merged record confirms (quality_metadata.confirmation.raw_record_sha256),
/// or "" when `raw` is not a confirmation.
std::string confirmed_raw_sha256(const Json& raw);

}  // namespace perfgate
