#pragma once
// Reading a probe report strictly: every field the contract (docs/probe-report.md) names
// must be there with its type, and the cross-references perfgate relies on must hold.
// Keys the contract does not name are ignored, because schema_version 1 may gain fields.
#include <filesystem>
#include <string>

#include "model/json.hpp"
#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// The report in `document`. Error(kDataError) "<source>: <json.path>: <reason>. <fix>"
/// for a missing or mistyped field, an unknown schema_version, a negative time or count,
/// a run or trace event naming a region that regions[] does not list, a region whose
/// parent is unknown or whose depth is not its parent's plus one, or a region id listed twice.
ProbeReport read_probe_report(const Json& document, const std::string& source);

/// The report in the file at `path` (named in messages as given). Error(kNoInput) when it
/// does not exist, Error(kIoError) when it cannot be read, Error(kDataError) when it is
/// not valid JSON or not a valid report.
ProbeReport load_probe_report(const std::filesystem::path& path);

}  // namespace perfgate::profile
