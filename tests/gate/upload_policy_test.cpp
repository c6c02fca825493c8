#include "gate/upload_policy.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

NormalizedRecord with_status(const char* status) {
  NormalizedRecord record;
  record.comparison_status = status;
  record.success = std::string(status) != kInfraError;
  return record;
}

TEST(UploadPolicy, ParsesTheThreePolicyNames) {
  EXPECT_EQ(parse_upload_policy("never"), UploadPolicy::kNever);
  EXPECT_EQ(parse_upload_policy("pass"), UploadPolicy::kPass);
  EXPECT_EQ(parse_upload_policy("always"), UploadPolicy::kAlways);
}

TEST(UploadPolicy, RejectsAnyOtherName) {
  EXPECT_FALSE(parse_upload_policy("Always").has_value());
  EXPECT_FALSE(parse_upload_policy("").has_value());
  EXPECT_FALSE(parse_upload_policy("fail").has_value());
}

TEST(UploadPolicy, NeverUploadsAnything) {
  for (const char* status :
       {kPass, kCalibrationNeeded, kRegression, kRecipeMismatch, kInfraError}) {
    EXPECT_FALSE(should_upload(UploadPolicy::kNever, with_status(status))) << status;
  }
}

TEST(UploadPolicy, PassUploadsOnlyRecordsWhoseStatusPassesCi) {
  EXPECT_TRUE(should_upload(UploadPolicy::kPass, with_status(kPass)));
  EXPECT_TRUE(should_upload(UploadPolicy::kPass, with_status(kCalibrationNeeded)));
  EXPECT_FALSE(should_upload(UploadPolicy::kPass, with_status(kRegression)));
  EXPECT_FALSE(should_upload(UploadPolicy::kPass, with_status(kRecipeMismatch)));
  EXPECT_FALSE(should_upload(UploadPolicy::kPass, with_status(kInfraError)));
}

TEST(UploadPolicy, AlwaysUploadsEveryRecordFailedOnesIncluded) {
  for (const char* status :
       {kPass, kCalibrationNeeded, kRegression, kRecipeMismatch, kInfraError}) {
    EXPECT_TRUE(should_upload(UploadPolicy::kAlways, with_status(status))) << status;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
