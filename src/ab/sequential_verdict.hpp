#pragma once
// The verdict of `perfgate ab --method stat` (docs/ab.md): after every measured pair, each
// metric's pairs as log(head / base), their anytime-valid confidence sequence at 1 - alpha
// (stats/confidence_sequence.hpp), and the budget as a threshold on the same scale.
// REGRESSION as soon as some metric's whole interval lies above its budget; PASS as soon as
// every judged metric's interval lies below; otherwise one more pair, and INCONCLUSIVE after
// max_pairs. Pure: samples in, verdict out.
#include "ab/paired_verdict.hpp"

namespace perfgate {

/// The verdict after runs.pair_count() pairs (at least 1); `final_look` says no pair will
/// follow, so an undecided verdict is INCONCLUSIVE rather than NEEDS_CONFIRMATION (which
/// here means: measure one more pair).
PairedVerdict judge_sequential(const PairedRuns& runs, const VerdictRules& rules, bool final_look);

/// A budget as a threshold on log(head / base): a change exceeds it only past both parts,
/// so the larger of log(1 + relative) and log(1 + absolute / base level).
double log_ratio_threshold(const Budget& budget, double base_level);

}  // namespace perfgate
