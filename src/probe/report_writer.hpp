#pragma once
// The probe report: the JSON document of docs/probe-report.md, built from the registry and
// the calling thread's state, and written so that readers never see half a file.

#include <string>

namespace perfgate::probe::detail {

/// At exit, threads other than the caller that are still running lose what they recorded
/// since their last hand-over; an explicit flush is taken while the program goes on.
enum class ReportMoment { kFlush, kExit };

std::string render_report(ReportMoment moment);

/// Writes render_report() to `path` through `path` + ".tmp-<pid>" and a rename.
bool write_report(const std::string& path, ReportMoment moment);

}  // namespace perfgate::probe::detail
