#include "cli/format_in_flag.hpp"

#include "model/error.hpp"

namespace perfgate {
namespace {

std::string format_names() {
  std::string names;
  for (const std::string& name : format_in_values()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

std::vector<std::string> format_in_values() {
  std::vector<std::string> names;
  for (const auto format :
       {ingest::ResultFormat::kNvbench, ingest::ResultFormat::kGoogleBenchmark,
        ingest::ResultFormat::kHyperfine, ingest::ResultFormat::kPyperf,
        ingest::ResultFormat::kPerfgateRaw, ingest::ResultFormat::kPerfgateNormalized}) {
    names.emplace_back(ingest::to_string(format));
  }
  return names;
}

std::optional<ingest::ResultFormat> parse_format_in_flag(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (const auto format = ingest::parse_result_format(text)) return format;
  throw Error(ExitCode::kUsage, "--format-in '" + text + "': use one of " + format_names() +
                                    ", or leave it out to recognise the format from the content");
}

}  // namespace perfgate
