#include "gate/upload_policy.hpp"

namespace perfgate {

std::optional<UploadPolicy> parse_upload_policy(const std::string& text) {
  if (text == "never") return UploadPolicy::kNever;
  if (text == "pass") return UploadPolicy::kPass;
  if (text == "always") return UploadPolicy::kAlways;
  return std::nullopt;
}

bool should_upload(UploadPolicy policy, const NormalizedRecord& record) {
  switch (policy) {
    case UploadPolicy::kNever:
      return false;
    case UploadPolicy::kPass:
      return record.comparison_status == kPass || record.comparison_status == kCalibrationNeeded;
    case UploadPolicy::kAlways:
      return true;
  }
  return false;
}

}  // namespace perfgate
