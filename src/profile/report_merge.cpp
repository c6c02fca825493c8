#include "profile/report_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "profile/key_averages.hpp"

namespace perfgate::profile {
namespace {

/// One past the highest thread index the report uses anywhere: the shift for the next input.
long long thread_span(const ProbeReport& report) {
  long long highest = -1;
  for (const auto& thread : report.threads) highest = std::max(highest, thread.thread_index);
  for (const auto& run : report.runs) {
    highest = std::max(highest, run.thread_index);
    for (const auto& row : run.dispatched) highest = std::max(highest, row.thread_index);
  }
  if (report.trace) {
    for (const auto& event : report.trace->events) highest = std::max(highest, event.thread_index);
  }
  return highest + 1;
}

}  // namespace

ProbeReport merge_reports(const std::vector<NamedReport>& inputs) {
  ProbeReport merged;
  const ProbeReport& first = inputs.at(0).report;
  merged.created_at = first.created_at;
  merged.perfgate_version = first.perfgate_version;
  merged.config = first.config;
  merged.target = first.target;

  std::map<std::string, RegionInfo> regions;
  long long thread_shift = 0;
  bool any_trace = false;
  ProbeTrace trace;
  for (const auto& [source, report] : inputs) {
    if (report.sources.empty()) {
      merged.sources.push_back(source);
    } else {
      merged.sources.insert(merged.sources.end(), report.sources.begin(), report.sources.end());
    }
    // Each input's program: a merged input brings its own list, the others one entry.
    const auto target_shift = static_cast<long long>(merged.targets.size());
    if (report.targets.empty()) {
      merged.targets.push_back({source, report.target});
    } else {
      merged.targets.insert(merged.targets.end(), report.targets.begin(), report.targets.end());
    }
    for (ProbeRun run : report.runs) {
      run.run_index = static_cast<long long>(merged.runs.size());
      run.thread_index += thread_shift;
      for (auto& row : run.dispatched) row.thread_index += thread_shift;
      merged.runs.push_back(std::move(run));
    }
    for (ThreadInfo thread : report.threads) {
      thread.thread_index += thread_shift;
      thread.target = target_shift + thread.target.value_or(0);
      merged.threads.push_back(std::move(thread));
    }
    for (const auto& region : report.regions) regions.emplace(region.id, region);
    if (report.trace) {
      any_trace = true;
      for (TraceEvent event : report.trace->events) {
        event.thread_index += thread_shift;
        trace.events.push_back(std::move(event));
      }
      trace.dropped += report.trace->dropped;
    }
    // An input that was itself merged carries a MERGED warning; the one added below names
    // every source, so earlier ones would only repeat part of it.
    for (const auto& warning : report.warnings) {
      if (warning.code != "MERGED") merged.warnings.push_back(warning);
    }
    thread_shift += thread_span(report);
  }
  for (auto& [id, region] : regions) merged.regions.push_back(std::move(region));
  merged.key_averages = compute_key_averages(merged.runs, merged.regions);
  // Each input's summary is its library's, of its own runs: they are not added up here
  // (their quantiles cannot be), so the merged view sums the listed runs; runs an input
  // folded past its detail cap are missing from that, and the merge says so.
  long long folded = 0;
  for (const auto& [source, report] : inputs) {
    if (report.summary) folded += report.summary->runs - report.summary->listed_runs;
  }
  if (folded > 0) {
    merged.warnings.push_back(
        {"RUNS_FOLDED_NOT_MERGED",
         fmt::format("{} run(s) the inputs folded past their detail cap are only in their own "
                     "summaries; the merged report's summary across runs covers the listed runs",
                     folded)});
  }
  if (any_trace) merged.trace = std::move(trace);
  merged.config.trace = any_trace;
  merged.warnings.push_back(
      {"MERGED", fmt::format("this report combines {} reports: {}", merged.sources.size(),
                             fmt::join(merged.sources, ", "))});
  return merged;
}

}  // namespace perfgate::profile
