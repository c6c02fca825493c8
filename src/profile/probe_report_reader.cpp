#include "profile/probe_report_reader.hpp"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "ingest/gzip_text.hpp"
#include "ingest/json_text.hpp"
#include "ingest/result_file.hpp"
#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate::profile {
namespace {

constexpr const char* kContractFix = "See docs/probe-report.md for the report's fields";

std::string element_path(const std::string& array_path, std::size_t index) {
  return fmt::format("{}[{}]", array_path, index);
}

double non_negative(JsonObjectReader& reader, const std::string& key) {
  const double value = reader.number(key);
  if (value < 0) {
    reader.fail(reader.path_of(key), fmt::format("{} is negative", value),
                "Times and fractions in a probe report are zero or more");
  }
  return value;
}

long long count(JsonObjectReader& reader, const std::string& key) {
  const long long value = reader.integer(key);
  if (value < 0) {
    reader.fail(reader.path_of(key), fmt::format("{} is negative", value),
                "Counts and indexes in a probe report are zero or more");
  }
  return value;
}

ProbeConfig read_config(JsonObjectReader& top) {
  JsonObjectReader reader(top.object("config"), top.source(), "config");
  ProbeConfig config;
  config.clock = reader.string("clock");
  if (config.clock != "tsc" && config.clock != "steady_clock") {
    reader.fail(reader.path_of("clock"), "unknown clock \"" + config.clock + "\"",
                "Use \"tsc\" or \"steady_clock\"");
  }
  config.clock_hz = reader.optional_number("clock_hz");
  config.enabled = reader.boolean("enabled");
  config.disabled_by = reader.optional_string("disabled_by");
  config.trace = reader.boolean("trace");
  config.cpu_time = reader.optional_boolean("cpu_time");
  config.region_cost_ns = reader.optional_number("region_cost_ns");
  if (config.region_cost_ns && *config.region_cost_ns < 0) {
    reader.fail(reader.path_of("region_cost_ns"), "is negative",
                "The probe's cost per region call is zero or more");
  }
  config.warmup_runs = reader.optional_integer("warmup_runs");
  if (config.warmup_runs && *config.warmup_runs < 0) {
    reader.fail(reader.path_of("warmup_runs"), "is negative", "A count of runs is zero or more");
  }
  return config;
}

ProbeTarget read_target(JsonObjectReader& top) {
  JsonObjectReader reader(top.object("target"), top.source(), "target");
  return {reader.string("executable"), reader.integer("pid"), reader.string("process_name")};
}

std::optional<double> optional_non_negative(JsonObjectReader& reader, const std::string& key) {
  const std::optional<double> value = reader.optional_number(key);
  if (value && *value < 0) {
    reader.fail(reader.path_of(key), fmt::format("{} is negative", *value),
                "Times and fractions in a probe report are zero or more");
  }
  return value;
}

RegionTime read_time(JsonObjectReader& row) {
  RegionTime time{row.string("region_id"), count(row, "calls"), non_negative(row, "wall_time_us"),
                  non_negative(row, "self_wall_time_us"), non_negative(row, "wall_time_fraction")};
  time.cpu_time_us = optional_non_negative(row, "cpu_time_us");
  time.self_cpu_time_us = optional_non_negative(row, "self_cpu_time_us");
  time.cpu_time_fraction = optional_non_negative(row, "cpu_time_fraction");
  return time;
}

ProbeRun read_run(const Json& value, const std::string& source, const std::string& path) {
  JsonObjectReader reader(value, source, path);
  ProbeRun run;
  run.run_index = count(reader, "run_index");
  run.thread_index = count(reader, "thread_index");
  run.warmup = reader.optional_boolean("warmup").value_or(false);
  JsonObjectReader timing(reader.object("timing"), source, reader.path_of("timing"));
  run.wall_time_us = non_negative(timing, "wall_time_us");
  run.cpu_time_us = non_negative(timing, "cpu_time_us");
  run.thread_cpu_time_us = optional_non_negative(timing, "thread_cpu_time_us");
  const Json& regions = reader.array("regions");
  for (std::size_t i = 0; i < regions.size(); ++i) {
    JsonObjectReader row(regions[i], source, element_path(reader.path_of("regions"), i));
    run.regions.push_back(read_time(row));
  }
  JsonObjectReader residual(reader.object("residual"), source, reader.path_of("residual"));
  run.residual_wall_time_us = non_negative(residual, "wall_time_us");
  run.residual_wall_time_fraction = non_negative(residual, "wall_time_fraction");
  run.residual_cpu_time_us = optional_non_negative(residual, "cpu_time_us");
  run.residual_cpu_time_fraction = optional_non_negative(residual, "cpu_time_fraction");
  if (reader.has("dispatched")) {
    const Json& dispatched = reader.array("dispatched");
    for (std::size_t i = 0; i < dispatched.size(); ++i) {
      JsonObjectReader row(dispatched[i], source, element_path(reader.path_of("dispatched"), i));
      const long long thread = count(row, "thread_index");
      run.dispatched.push_back({thread, read_time(row)});
    }
  }
  if (const Json* probe = reader.optional_object("probe")) {
    JsonObjectReader cost(*probe, source, reader.path_of("probe"));
    run.probe = ProbeCost{count(cost, "region_calls"), non_negative(cost, "cost_us"),
                          non_negative(cost, "cost_fraction")};
  }
  return run;
}

std::vector<SummaryRow> read_summary_rows(JsonObjectReader& summary, const std::string& key) {
  std::vector<SummaryRow> out;
  const Json& rows = summary.array(key);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    JsonObjectReader row(rows[i], summary.source(), element_path(summary.path_of(key), i));
    SummaryRow item;
    item.region_id = row.string("region_id");
    item.runs = count(row, "runs");
    item.calls = non_negative(row, "calls");
    item.wall_time_us = non_negative(row, "wall_time_us");
    item.self_wall_time_us = non_negative(row, "self_wall_time_us");
    item.wall_time_fraction = non_negative(row, "wall_time_fraction");
    JsonObjectReader per_run(row.object("per_run_wall_time_us"), summary.source(),
                             row.path_of("per_run_wall_time_us"));
    item.median_us = non_negative(per_run, "median");
    item.p90_us = non_negative(per_run, "p90");
    item.max_us = non_negative(per_run, "max");
    out.push_back(std::move(item));
  }
  return out;
}

std::optional<ProbeSummary> read_summary(JsonObjectReader& top) {
  const Json* value = top.optional_object("summary");
  if (value == nullptr) return std::nullopt;  // reports from before the summary
  JsonObjectReader reader(*value, top.source(), "summary");
  ProbeSummary summary;
  summary.runs = count(reader, "runs");
  summary.measured_runs = count(reader, "measured_runs");
  summary.listed_runs = count(reader, "listed_runs");
  summary.quantiles = reader.string("quantiles");
  if (summary.quantiles != "exact" && summary.quantiles != "histogram") {
    reader.fail(reader.path_of("quantiles"), "unknown kind \"" + summary.quantiles + "\"",
                "Use \"exact\" or \"histogram\"");
  }
  if (summary.measured_runs > summary.runs || summary.listed_runs > summary.runs) {
    reader.fail(reader.path_of("runs"),
                fmt::format("{} runs, fewer than the {} measured or {} listed", summary.runs,
                            summary.measured_runs, summary.listed_runs),
                "runs counts every run, measured and listed ones included");
  }
  JsonObjectReader wall(reader.object("wall_time_us"), top.source(),
                        reader.path_of("wall_time_us"));
  summary.wall_mean_us = non_negative(wall, "mean");
  summary.wall_min_us = non_negative(wall, "min");
  summary.wall_median_us = non_negative(wall, "median");
  summary.wall_p90_us = non_negative(wall, "p90");
  summary.wall_max_us = non_negative(wall, "max");
  JsonObjectReader cpu(reader.object("cpu_time_us"), top.source(), reader.path_of("cpu_time_us"));
  summary.cpu_mean_us = non_negative(cpu, "mean");
  JsonObjectReader residual(reader.object("residual"), top.source(), reader.path_of("residual"));
  summary.residual_wall_time_us = non_negative(residual, "wall_time_us");
  summary.residual_wall_time_fraction = non_negative(residual, "wall_time_fraction");
  summary.regions = read_summary_rows(reader, "regions");
  summary.dispatched = read_summary_rows(reader, "dispatched");
  return summary;
}

RegionInfo read_region(const Json& value, const std::string& source, const std::string& path) {
  JsonObjectReader reader(value, source, path);
  RegionInfo region;
  region.id = reader.string("id");
  if (region.id.empty()) reader.fail(reader.path_of("id"), "empty", "Give every region an id");
  region.name = reader.string("name");
  region.parent = reader.optional_string("parent");
  region.depth = count(reader, "depth");
  region.file = reader.string("file");
  region.line = reader.integer("line");
  region.function = reader.string("function");
  return region;
}

std::vector<KeyAverage> read_key_average_rows(JsonObjectReader& parent, const std::string& key) {
  const Json& rows = parent.array(key);
  std::vector<KeyAverage> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    JsonObjectReader row(rows[i], parent.source(), element_path(parent.path_of(key), i));
    out.push_back({row.string("region_id"), count(row, "calls"),
                   non_negative(row, "self_wall_time_us"), non_negative(row, "wall_time_us"),
                   count(row, "runs")});
  }
  return out;
}

std::vector<NameAverage> read_name_average_rows(JsonObjectReader& parent) {
  std::vector<NameAverage> out;
  if (!parent.has("by_name")) return out;  // reports from before the by-name view
  const Json& rows = parent.array("by_name");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    JsonObjectReader row(rows[i], parent.source(), element_path(parent.path_of("by_name"), i));
    out.push_back({row.string("name"), count(row, "calls"), non_negative(row, "self_wall_time_us"),
                   non_negative(row, "wall_time_us"), count(row, "runs"), count(row, "ids")});
  }
  return out;
}

std::optional<ProbeTrace> read_trace(JsonObjectReader& top) {
  const Json* value = top.optional_object("trace");
  if (value == nullptr) return std::nullopt;
  JsonObjectReader reader(*value, top.source(), "trace");
  ProbeTrace trace;
  const Json& events = reader.array("events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    JsonObjectReader event(events[i], top.source(), element_path("trace.events", i));
    trace.events.push_back({event.string("region_id"), count(event, "thread_index"),
                            non_negative(event, "start_us"), non_negative(event, "duration_us")});
  }
  trace.dropped = count(reader, "dropped");
  return trace;
}

/// The cross-references perfgate relies on: every region id a run, a key average or a
/// trace event uses is described in regions[], and the nesting in regions[] is consistent.
void check_references(const ProbeReport& report, const JsonObjectReader& top) {
  std::map<std::string, const RegionInfo*> ids;
  for (std::size_t i = 0; i < report.regions.size(); ++i) {
    const RegionInfo& region = report.regions[i];
    const std::string path = element_path("regions", i);
    if (!ids.emplace(region.id, &region).second) {
      top.fail(path + ".id", "region id \"" + region.id + "\" is listed twice",
               "List each region id once");
    }
  }
  for (std::size_t i = 0; i < report.regions.size(); ++i) {
    const RegionInfo& region = report.regions[i];
    const std::string path = element_path("regions", i);
    if (!region.parent) {
      if (region.depth != 0) {
        top.fail(path + ".depth",
                 fmt::format("depth {} for a region without a parent", region.depth),
                 "A region whose parent is null has depth 0");
      }
      continue;
    }
    const auto found = ids.find(*region.parent);
    const RegionInfo* parent = found != ids.end() ? found->second : nullptr;
    if (parent == nullptr) {
      top.fail(path + ".parent", "unknown region \"" + *region.parent + "\"",
               "A parent must be the id of another entry of regions[]");
    }
    if (region.depth != parent->depth + 1) {
      top.fail(path + ".depth",
               fmt::format("depth {} under parent \"{}\" of depth {}", region.depth, parent->id,
                           parent->depth),
               "A region's depth is its parent's depth plus one");
    }
  }
  const auto check_id = [&](const std::string& id, const std::string& path) {
    if (ids.count(id) == 0) {
      top.fail(path, "region \"" + id + "\" is not listed in regions[]",
               "Describe every region id the report uses in regions[]");
    }
  };
  for (std::size_t r = 0; r < report.runs.size(); ++r) {
    for (std::size_t i = 0; i < report.runs[r].regions.size(); ++i) {
      check_id(report.runs[r].regions[i].region_id,
               fmt::format("runs[{}].regions[{}].region_id", r, i));
    }
    for (std::size_t i = 0; i < report.runs[r].dispatched.size(); ++i) {
      check_id(report.runs[r].dispatched[i].time.region_id,
               fmt::format("runs[{}].dispatched[{}].region_id", r, i));
    }
  }
  if (report.summary) {
    for (std::size_t i = 0; i < report.summary->regions.size(); ++i) {
      check_id(report.summary->regions[i].region_id,
               fmt::format("summary.regions[{}].region_id", i));
    }
    for (std::size_t i = 0; i < report.summary->dispatched.size(); ++i) {
      check_id(report.summary->dispatched[i].region_id,
               fmt::format("summary.dispatched[{}].region_id", i));
    }
  }
  for (std::size_t i = 0; i < report.key_averages.self_time.size(); ++i) {
    check_id(report.key_averages.self_time[i].region_id,
             fmt::format("key_averages.self_time[{}].region_id", i));
  }
  for (std::size_t i = 0; i < report.key_averages.total_time.size(); ++i) {
    check_id(report.key_averages.total_time[i].region_id,
             fmt::format("key_averages.total_time[{}].region_id", i));
  }
  if (report.trace) {
    for (std::size_t i = 0; i < report.trace->events.size(); ++i) {
      check_id(report.trace->events[i].region_id, fmt::format("trace.events[{}].region_id", i));
    }
  }
}

/// A file that is not a probe report but a result file perfgate reads elsewhere: say
/// which, and where it belongs, instead of naming a missing probe field. The result
/// formats' own parser is tolerant (NaN, gzip), so a Google Benchmark file with NaN is
/// recognised too.
void refuse_result_file(const std::string& name, const std::string& text) {
  std::optional<ingest::ResultFormat> format;
  try {
    const std::string plain = ingest::is_gzip(text) ? ingest::gunzip(text, name) : text;
    const Json document = ingest::parse_result_json(plain, name);
    format = ingest::detect_result_format(document);
  } catch (const Error&) {
    return;  // not readable as a result file either: the probe reader's message stands
  }
  if (!format) return;
  const bool own_record = *format == ingest::ResultFormat::kPerfgateRaw ||
                          *format == ingest::ResultFormat::kPerfgateNormalized;
  throw Error(ExitCode::kDataError,
              fmt::format("{}: (top level): this is {}, not a probe report. {}", name,
                          ingest::describe_format(*format),
                          own_record ? "Compare records with perfgate compare or perfgate diff; "
                                       "profile reads the file PERFGATE_PROBE_OUT names"
                                     : "Try perfgate diff REF CMP to compare result files, or "
                                       "perfgate import to store it; profile reads the file "
                                       "PERFGATE_PROBE_OUT names"));
}

}  // namespace

ProbeReport read_probe_report(const Json& document, const std::string& source) {
  JsonObjectReader top(document, source, "");
  const long long version = top.integer("schema_version");
  if (version != kProbeSchemaVersion) {
    top.fail("schema_version", fmt::format("unknown schema_version {}", version),
             fmt::format("This perfgate reads schema_version {}; use the perfgate release that "
                         "matches the probe library that wrote the file",
                         kProbeSchemaVersion));
  }
  ProbeReport report;
  report.created_at = top.string("created_at");
  report.perfgate_version = top.string("perfgate_version");
  report.config = read_config(top);
  report.target = read_target(top);
  const Json& runs = top.array("runs");
  for (std::size_t i = 0; i < runs.size(); ++i)
    report.runs.push_back(read_run(runs[i], source, element_path("runs", i)));
  report.summary = read_summary(top);
  const Json& regions = top.array("regions");
  for (std::size_t i = 0; i < regions.size(); ++i)
    report.regions.push_back(read_region(regions[i], source, element_path("regions", i)));
  const Json& threads = top.array("threads");
  for (std::size_t i = 0; i < threads.size(); ++i) {
    JsonObjectReader thread(threads[i], source, element_path("threads", i));
    ThreadInfo info{count(thread, "thread_index"), thread.string("name"), std::nullopt};
    info.target = thread.optional_integer("target");
    report.threads.push_back(std::move(info));
  }
  JsonObjectReader averages(top.object("key_averages"), source, "key_averages");
  report.key_averages.self_time = read_key_average_rows(averages, "self_time");
  report.key_averages.total_time = read_key_average_rows(averages, "total_time");
  report.key_averages.by_name = read_name_average_rows(averages);
  report.trace = read_trace(top);
  const Json& warnings = top.array("warnings");
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    JsonObjectReader warning(warnings[i], source, element_path("warnings", i));
    report.warnings.push_back({warning.string("code"), warning.string("message")});
  }
  if (top.has("sources")) {
    const Json& sources = top.array("sources");
    for (std::size_t i = 0; i < sources.size(); ++i) {
      if (!sources[i].is_string()) {
        top.fail(element_path("sources", i),
                 "expected a string, found " + json_type_name(sources[i]),
                 "List the merged files by name");
      }
      report.sources.push_back(sources[i].get<std::string>());
    }
  }
  if (top.has("targets")) {
    const Json& targets = top.array("targets");
    for (std::size_t i = 0; i < targets.size(); ++i) {
      JsonObjectReader target(targets[i], source, element_path("targets", i));
      report.targets.push_back(
          {target.string("source"),
           {target.string("executable"), target.integer("pid"), target.string("process_name")}});
    }
  }
  for (std::size_t i = 0; i < report.threads.size(); ++i) {
    const auto& target = report.threads[i].target;
    if (target && (*target < 0 || static_cast<std::size_t>(*target) >= report.targets.size())) {
      top.fail(element_path("threads", i) + ".target",
               fmt::format("{} is not an index of targets[] ({} entries)", *target,
                           report.targets.size()),
               "A thread's target is the index of its program in targets[]");
    }
  }
  check_references(report, top);
  return report;
}

ProbeReport load_probe_report(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) {
    throw Error(ExitCode::kNoInput,
                name + ": no such file. Give the path of a probe report (PERFGATE_PROBE_OUT)");
  }
  // Read into one string, sized from the file where it has a size: a report of 165 MB is
  // held once, not twice.
  std::ifstream in(path, std::ios::binary);
  std::string content;
  std::error_code no_size;
  if (std::filesystem::is_regular_file(path, no_size)) {
    const std::uintmax_t size = std::filesystem::file_size(path, no_size);
    if (!no_size) content.reserve(static_cast<std::size_t>(size));
  }
  std::array<char, 1 << 16> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    content.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad() || (!in.eof() && content.empty())) {
    throw Error(ExitCode::kIoError, name + ": cannot read the file: " + std::strerror(errno) +
                                        ". Check its permissions");
  }
  try {
    Json document;
    try {
      document = Json::parse(content);
    } catch (const Json::parse_error& error) {
      throw Error(ExitCode::kDataError,
                  fmt::format("{}: (top level): not valid JSON at byte {}. {}", name, error.byte,
                              kContractFix));
    } catch (const Json::exception&) {
      throw Error(ExitCode::kDataError, fmt::format("{}: (top level): a number is out of range. {}",
                                                    name, "Write finite numbers only"));
    }
    return read_probe_report(document, name);
  } catch (const Error&) {
    refuse_result_file(name, content);  // throws when the file is another tool's result
    throw;
  }
}

}  // namespace perfgate::profile
