#pragma once
// Chrome trace-event export of a probe report's trace, for Perfetto or chrome://tracing.
#include <string>

#include "model/json.hpp"
#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// The JSON text {"traceEvents": [...], "displayTimeUnit": "ns"}, one event per line and
/// made as it is written (no document of every event in memory): first "M" events naming the
/// process (target.process_name) and every thread the trace or threads[] mentions, then one
/// complete ("X") event per trace event, in the report's order, with the region's name,
/// cat "region", ts and dur in microseconds rounded to whole nanoseconds (timestamps are
/// relative to the process's first probe use), pid = target.pid, tid = thread index and
/// the full region id in args. Error(kDataError) naming `source` when the report has no
/// trace, with the fix: run with PERFGATE_PROBE_TRACE=1.
std::string chrome_trace(const ProbeReport& report, const std::string& source);

}  // namespace perfgate::profile
