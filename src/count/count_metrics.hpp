#pragma once
// The count metrics of one counted run under Valgrind (model/metric.hpp names them;
// docs/measurement.md says what they miss).
#include <map>
#include <string>
#include <vector>

#include "count/callgrind_output.hpp"
#include "model/metric.hpp"

namespace perfgate {

/// Adds up the processes of one run (the program and every child valgrind followed) and
/// derives the metrics: instructions = Ir; l1_misses = I1mr + D1mr + D1mw; ll_misses =
/// ILmr + DLmr + DLmw; estimated_cycles = L1 hits + 5 x LL hits + 35 x RAM hits, where the
/// accesses are Ir + Dr + Dw, L1 hits = accesses - l1_misses, LL hits = l1_misses -
/// ll_misses and RAM hits = ll_misses (iai-callgrind's model). Without the cache events
/// (cache simulation off) only instructions. Events missing from one process count 0.
std::map<std::string, double> valgrind_metrics(const std::vector<EventCounts>& processes);

}  // namespace perfgate
