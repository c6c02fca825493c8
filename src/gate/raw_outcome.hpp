#pragma once
// What a raw record says about its own run, as the classifier needs it (SPEC §6): did the
// run succeed, and did it breach a static threshold. Read from the raw record's JSON.
#include "gate/comparison_status.hpp"
#include "model/json.hpp"

namespace perfgate {

/// Whether the raw record breached a static threshold (its static_thresholds.status).
/// False for anything malformed: validate with normalize_raw_record first.
bool raw_record_breached_static_threshold(const Json& raw);

/// The raw record's own outcome, as classify needs it: run_succeeded and run_failure
/// (its success and failure_reason), static_breach and static_breach_detail (every
/// breached check, "latency mean 2.1 s > 2 s; memory max 410 MB > 400 MB"). The other
/// fields keep their defaults. Never throws: validate with normalize_raw_record first.
ClassificationInputs raw_record_outcome(const Json& raw);

}  // namespace perfgate
