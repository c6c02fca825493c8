#pragma once
// Which commit a side's checkout (--base-dir/--head-dir) is at, so a report says what was
// compared: `git rev-parse HEAD` and whether tracked files differ from it.
#include <filesystem>
#include <optional>

#include "model/json.hpp"

namespace perfgate {

/// {"commit": "<40 hex>", "dirty": bool} for a folder inside a git work tree; nullopt when
/// it is not in one or git is not installed. Untracked files (build output) are not dirt.
std::optional<Json> describe_checkout_commit(const std::filesystem::path& dir);

}  // namespace perfgate
