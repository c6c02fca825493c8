#pragma once
// Which normalised records `compare` writes to the store (SPEC §6).
#include <optional>
#include <string>

#include "model/normalized_record.hpp"

namespace perfgate {

enum class UploadPolicy { kNever, kPass, kAlways };

/// "never", "pass", "always"; nullopt for anything else.
std::optional<UploadPolicy> parse_upload_policy(const std::string& text);

/// never: nothing; pass: records whose status passes CI (PASS, CALIBRATION_NEEDED);
/// always: every record (failed ones are stored with success=false and never join a
/// baseline).
bool should_upload(UploadPolicy policy, const NormalizedRecord& record);

}  // namespace perfgate
