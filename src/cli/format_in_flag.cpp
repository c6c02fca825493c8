#include "cli/format_in_flag.hpp"

#include "model/error.hpp"

namespace perfgate {
namespace {

std::string format_names() {
  std::string names;
  for (const auto format :
       {ingest::ResultFormat::kNvbench, ingest::ResultFormat::kGoogleBenchmark,
        ingest::ResultFormat::kHyperfine, ingest::ResultFormat::kPyperf,
        ingest::ResultFormat::kPerfgateRaw, ingest::ResultFormat::kPerfgateNormalized}) {
    names += (names.empty() ? "" : ", ") + std::string(ingest::to_string(format));
  }
  return names;
}

}  // namespace

std::optional<ingest::ResultFormat> parse_format_in_flag(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (const auto format = ingest::parse_result_format(text)) return format;
  throw Error(ExitCode::kUsage, "--format-in '" + text + "': use one of " + format_names() +
                                    ", or leave it out to recognise the format from the content");
}

}  // namespace perfgate
