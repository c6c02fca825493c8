#include "measure/host_provenance.hpp"

#include <gtest/gtest.h>

#include "support/fake_host.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::FakeHost;

HostProvenance described(const Environment& env, const SoftwareProfileConfig& software = {}) {
  return describe_host(FakeHost{}, env, software, "", 1'780'000'000);
}

TEST(HostProvenance, AnImageUpgradeOpensANewSoftwareProfileOnTheSameHardware) {
  const HostProvenance before =
      described({{"PERFGATE_IMAGE_REF", "ghcr.io/acme/dev:py3.12-cuda12.4@sha256:aaaa"}});
  const HostProvenance after =
      described({{"PERFGATE_IMAGE_REF", "ghcr.io/acme/dev:py3.12-cuda13.0@sha256:bbbb"}});
  EXPECT_NE(after.provenance.software_profile_id, before.provenance.software_profile_id);
  EXPECT_EQ(after.provenance.hardware_profile_id, before.provenance.hardware_profile_id);
  EXPECT_EQ(after.provenance.software_profile["image"],
            "ghcr.io/acme/dev:py3.12-cuda13.0@sha256:bbbb");
}

// An environment variable may hold any bytes; the profiles' ids take UTF-8 only, and a run
// must not be refused for the machine's own text.
TEST(HostProvenance, KeepsAnEnvironmentValueThatIsNotUtf8WithItsBadBytesReplaced) {
  const HostProvenance described_ = described({{"PERFGATE_IMAGE_REF", "img\xFF:1"}});
  EXPECT_EQ(described_.provenance.software_profile["image"], "img\xEF\xBF\xBD:1");
  EXPECT_EQ(described_.provenance.environment_metadata["image_ref"], "img\xEF\xBF\xBD:1");
  EXPECT_EQ(
      described_.provenance.software_profile_id,
      described({{"PERFGATE_IMAGE_REF", "img\xEF\xBF\xBD:1"}}).provenance.software_profile_id);
}

TEST(HostProvenance, RecordsTheImageRefInTheEnvironmentMetadataOnlyWhenOneIsKnown) {
  const HostProvenance with_image = described({{"IMAGE_VERSION", "py3.12-cuda13.0.0"}});
  EXPECT_EQ(with_image.provenance.environment_metadata["image_ref"], "py3.12-cuda13.0.0");
  const HostProvenance without = described({});
  EXPECT_FALSE(without.provenance.environment_metadata.contains("image_ref"));
  EXPECT_FALSE(without.provenance.software_profile.contains("image"));
}

TEST(HostProvenance, KeepsTheNoteOfAMissingPythonBesideTheProvenance) {
  SoftwareProfileConfig software;
  software.pip_packages = {"numpy"};
  const HostProvenance host = described({}, software);
  ASSERT_EQ(host.software_notes.size(), 1u);
  EXPECT_EQ(host.software_notes[0].rfind("python3 could not be started", 0), 0u);
  EXPECT_EQ(host.provenance.software_profile["pip_packages"]["numpy"], "unknown");
}

TEST(HostProvenance, TakesTheRunSourceFlagOverPerfRunSource) {
  const Environment env{{"PERF_RUN_SOURCE", "local"}};
  EXPECT_EQ(described(env).provenance.run_source, "local");
  EXPECT_EQ(describe_host(FakeHost{}, env, {}, "pr", 0).provenance.run_source, "pr");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
