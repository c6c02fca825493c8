#pragma once
// `perfgate profile --merge`: several probe reports (processes, or runs of one program)
// combined into one document that every other view reads like a single report.
#include <string>
#include <vector>

#include "profile/probe_report.hpp"

namespace perfgate::profile {

struct NamedReport {
  std::string source;  ///< the file it came from, as the user named it
  ProbeReport report;
};

/// One report from `inputs` (at least one), in their order:
/// - created_at, perfgate_version, config and target are those of the first input;
///   `sources` lists every input's source and `targets` every input's program (a merged
///   input contributes its own lists); each thread's `target` names its program there;
/// - runs are concatenated and renumbered 0, 1, ...; each input's threads are shifted past
///   those of the inputs before it, so threads of different processes stay apart;
/// - regions are the union by id (the first input that describes an id wins), by id;
/// - key_averages are recomputed from the merged runs (warmups left out); no summary is
///   kept (RUNS_FOLDED_NOT_MERGED when an input had folded runs the merge cannot see);
/// - trace events are concatenated (threads shifted) when any input has a trace, with
///   `dropped` summed; each input's times stay relative to its own process start;
/// - warnings are concatenated, followed by one MERGED warning naming the inputs.
ProbeReport merge_reports(const std::vector<NamedReport>& inputs);

}  // namespace perfgate::profile
