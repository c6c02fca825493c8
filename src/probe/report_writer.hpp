#pragma once
// The probe report: the JSON document of docs/probe-report.md, built from the registry and
// the calling thread's state, and written so that readers never see half a file.

#include <cstdint>
#include <string>

namespace perfgate::probe::detail {

/// At exit, threads other than the caller that are still running lose what they recorded
/// since their last hand-over; an explicit flush is taken while the program goes on.
enum class ReportMoment { kFlush, kExit };

std::string render_report(ReportMoment moment);

/// "1970-01-01T00:00:00Z" for 0: seconds since the epoch as the report's created_at says
/// them, in UTC, without reading the time zone.
std::string utc_stamp(std::int64_t seconds);

/// Writes render_report() to `path` through `path` + ".tmp-<pid>" and a rename; a report
/// already at `path` is removed first.
bool write_report(const std::string& path, ReportMoment moment);

}  // namespace perfgate::probe::detail
