// Fuzz target: perfgate normalised records, current and legacy layouts (--format-in
// perfgate-normalized), through read_result_file. The same text is also read as a store
// reads a record's content, by both readers: whatever the fast one reads, the strict one
// must read the same way, or the input is a finding.
#include <cstdlib>
#include <optional>
#include <string>

#include "model/normalized_record.hpp"
#include "model/record_fast_reader.hpp"
#include "support/fuzz_input.hpp"
#include "support/result_file_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::read_result_input(data, size,
                                    perfgate::ingest::ResultFormat::kPerfgateNormalized);
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<perfgate::NormalizedRecord> fast;
  perfgate::fuzz::expect_user_errors_only(
      [&] { fast = perfgate::read_current_record_fast(text, "id"); });
  if (!fast) return 0;
  perfgate::Json json = perfgate::Json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) std::abort();  // read what does not parse
  json["record_id"] = "id";
  std::optional<perfgate::NormalizedRecord> strict;
  perfgate::fuzz::expect_user_errors_only(
      [&] { strict = perfgate::normalized_record_from_json(json, "store"); });
  if (!(strict && *fast == *strict)) std::abort();  // the readers disagree
  return 0;
}
