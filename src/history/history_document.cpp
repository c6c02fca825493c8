#include "history/history_document.hpp"

#include "model/error.hpp"
#include "model/fast_json.hpp"

namespace perfgate::history {

Json parse_history_object(std::string_view text, const std::string& source,
                          const std::string& damaged_fix) {
  std::optional<Json> json = parse_json_fast(text);
  if (!json || !json->is_object()) {
    throw Error(ExitCode::kDataError, source + ": not a JSON object. " + damaged_fix);
  }
  return std::move(*json);
}

void check_history_schema(JsonObjectReader& reader, const std::string& newer_fix) {
  const long long version = reader.integer("schema_version");
  if (version < 1 || version > kHistorySchemaVersion) {
    reader.fail("schema_version", "version " + std::to_string(version) + " is not supported",
                "This perfgate reads versions 1 to " + std::to_string(kHistorySchemaVersion) +
                    "; " + newer_fix);
  }
}

}  // namespace perfgate::history
