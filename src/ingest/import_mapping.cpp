#include "ingest/import_mapping.hpp"

#include <fnmatch.h>

#include "config/config_sections.hpp"
#include "config/config_value.hpp"

namespace perfgate::ingest {
namespace {

const std::vector<std::string> kTopLevelKeys = {"benchmark"};
const std::vector<std::string> kEntryKeys = {"match", "workload_id", "variant_id",
                                             "benchmark_version", "regression_thresholds"};

MappingEntry read_entry(const ConfigValue& value) {
  ErrorList errors;
  const ConfigTable table(value, kEntryKeys, errors);
  MappingEntry entry;
  errors.check([&] {
    entry.match = table
                      .require("match",
                               "Add match = \"<glob>\", e.g. \"BM_memcpy*\", over the benchmark "
                               "name or <benchmark>/<state>")
                      .non_empty_string();
  });
  errors.check([&] {
    if (const auto workload = table.get("workload_id"))
      entry.identity.workload_id = workload->non_empty_string();
  });
  errors.check([&] {
    if (const auto variant = table.get("variant_id"))
      entry.identity.variant_id = variant->non_empty_string();
  });
  errors.check([&] {
    if (const auto version = table.get("benchmark_version")) {
      const long long number = version->integer();
      if (number < 1) {
        throw version->error("must be at least 1, found " + std::to_string(number),
                             "Start at 1 and raise it when the measurement protocol changes");
      }
      entry.identity.benchmark_version = number;
    }
  });
  errors.check([&] {
    // Per-benchmark policies: a nanosecond micro-benchmark and a millisecond program in one
    // import each get thresholds that fit them.
    if (const auto thresholds = table.get("regression_thresholds")) {
      for (const auto& [metric, policy] : thresholds->members()) {
        errors.check([&, &metric = metric, &policy = policy] {
          entry.regression_thresholds[metric] = read_metric_policy(policy);
        });
      }
    }
  });
  errors.throw_if_any();
  if (!entry.identity.workload_id && !entry.identity.variant_id &&
      !entry.identity.benchmark_version && entry.regression_thresholds.empty()) {
    throw value.error("sets nothing",
                      "Add workload_id, variant_id, benchmark_version or regression_thresholds, "
                      "or remove the entry");
  }
  return entry;
}

}  // namespace

ImportMapping parse_import_mapping(const ConfigDocument& document) {
  const ConfigValue root(document, document.root, "");
  const ConfigTable table(root, kTopLevelKeys);
  const ConfigValue list = table.require(
      "benchmark", document.format == ConfigFormat::kToml
                       ? "Add [[benchmark]] entries with match and workload_id, variant_id or "
                         "benchmark_version"
                       : "Add \"benchmark\": [{\"match\": ..., \"workload_id\": ...}]");
  ImportMapping mapping;
  mapping.source = document.file;
  for (const ConfigValue& item : list.items()) mapping.entries.push_back(read_entry(item));
  return mapping;
}

ImportMapping read_import_mapping(const std::filesystem::path& file) {
  return parse_import_mapping(read_config_document(file));
}

std::string mapping_subject(const std::string& benchmark, const std::string& state_key) {
  return state_key.empty() ? benchmark : benchmark + "/" + state_key;
}

const MappingEntry* find_mapping_entry(const ImportMapping& mapping, const std::string& subject) {
  for (const MappingEntry& entry : mapping.entries) {
    if (entry.match == subject || ::fnmatch(entry.match.c_str(), subject.c_str(), 0) == 0)
      return &entry;
  }
  return nullptr;
}

}  // namespace perfgate::ingest
