#pragma once
// A state measured a run at a time, in rounds that alternate with other commits' runs
// (`history measure` of a plan's confirming commits, docs/history.md): the rounds' records
// become one record, as if its runs had been measured together, so that every consumer of a
// raw record reads it as any other.
#include <vector>

#include "config/benchmark_config.hpp"
#include "model/raw_record.hpp"

namespace perfgate {

/// `state` as it is measured in one round: one measured run, and the config's warmups and
/// counted runs (run_config.measure holds "instructions") only in the first round. `config`
/// receives the adjusted copy the returned state points to.
BenchmarkState round_of(const BenchmarkState& state, bool first, BenchmarkConfig& config);

/// The rounds' records (in order; each of one measured run, the first with the warmups) as
/// one record: runs numbered in order, each metric's samples appended and summarised again,
/// the static thresholds checked on all the samples, the recipe and fingerprint of `state` as
/// configured (not of a one-run round; its counting backend the first round's), the machine state
/// of the first round. A round that failed makes the record failed with that round's reason.
/// `rounds` must not be empty.
RawRecord merge_rounds(const std::vector<RawRecord>& rounds, const BenchmarkState& state);

}  // namespace perfgate
