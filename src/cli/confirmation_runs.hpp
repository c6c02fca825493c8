#pragma once
// `compare --confirm N` (docs/compare.md, "Confirmation"): before a REGRESSION or an
// INCONCLUSIVE verdict reaches anyone, its state is measured again on this machine, N runs
// in fresh processes, and judged on all the samples.
#include <string>
#include <vector>

#include "gate/batch_comparison.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// Replaces each raw input that an earlier `compare --confirm` already re-measured by that
/// confirmation (<the input's folder>/confirm/): a repeated compare judges the same samples
/// and measures nothing. Notes on stderr name confirmation files that cannot be read.
void use_earlier_confirmations(std::vector<RawInput>& inputs);

/// What a round of confirmations did.
struct ConfirmationRound {
  std::size_t merged = 0;  ///< inputs replaced by a merged record: the batch is judged again
  std::vector<std::string> not_confirmed;  ///< a line per record that could not be re-measured
};

/// Measures `runs` more runs of the state of every record judged REGRESSION or
/// INCONCLUSIVE (`judged`, in the order of `inputs`) and replaces its input by the merged
/// record, written to <its folder>/confirm/. A record that cannot be re-measured here (an
/// ad-hoc command, another machine, a config changed since, a failed run) keeps its input;
/// the round's lines say why, one per record. Stops early, measuring nothing more, when
/// the user interrupts (interruption_signal()).
ConfirmationRound confirm_judged_records(std::vector<RawInput>& inputs,
                                         const std::vector<NormalizedRecord>& judged, int runs,
                                         bool show_progress);

}  // namespace perfgate
