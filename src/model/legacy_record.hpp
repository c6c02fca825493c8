#pragma once
// The seed's legacy normalised-record layouts (result_schema_version absent = 1, or 2):
// flat metric keys, model_id and gpu_type. Old data must stay readable, so unknown
// fields are kept (NormalizedRecord::legacy_fields) instead of rejected.
#include "model/json_reader.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// Converts a legacy record (layout `version`, 1 or 2) into the current layout.
/// `reader` has already read result_schema_version when it was present.
NormalizedRecord read_legacy_record(JsonObjectReader& reader, int version);

}  // namespace perfgate
