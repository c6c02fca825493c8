#include "report/cohort_labels.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

NormalizedRecord cohort(const std::string& workload, const std::string& variant,
                        std::map<std::string, std::string> parameters = {}) {
  NormalizedRecord r;
  r.benchmark_id = workload;
  r.config_schema_version = 2;
  r.workload_id = workload;
  r.variant_id = variant;
  r.benchmark_version = 1;
  r.recipe_fingerprint = "3f2a9c81d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0";
  r.hardware_profile_id = "hw-1a2b3c4d5e6f7a8b";
  r.software_profile_id = "sw-5e6f7a8b9c0d1e2f";
  r.parameters = std::move(parameters);
  return r;
}

std::vector<std::string> labels_of(const std::vector<NormalizedRecord>& newest) {
  std::vector<const NormalizedRecord*> cohorts;
  for (const NormalizedRecord& record : newest) cohorts.push_back(&record);
  return store_view_labels(cohorts);
}

TEST(CohortLabels, NamesACohortWithoutSiblingsByItsWorkloadAndVariant) {
  EXPECT_EQ(labels_of({cohort("sort", "default", {{"n", "200000"}}), cohort("sort", "avx2")}),
            (std::vector<std::string>{"sort/default", "sort/avx2"}));
}

TEST(CohortLabels, ShowsOnlyTheParametersWhoseValuesDifferAmongSiblings) {
  std::vector<NormalizedRecord> cohorts = {
      cohort("sort", "default", {{"n", "200000"}, {"threads", "8"}}),
      cohort("sort", "default", {{"n", "500000"}, {"threads", "8"}}),
      cohort("sort", "default", {{"n", "500000"}, {"threads", "8"}, {"mode", "fast"}})};
  cohorts[1].recipe_fingerprint = "77aa01c2d3e4";
  cohorts[2].recipe_fingerprint = "c0de00112233";
  EXPECT_EQ(labels_of(cohorts),
            (std::vector<std::string>{"sort/default (n=200000)", "sort/default (n=500000)",
                                      "sort/default (mode=fast, n=500000)"}));
}

TEST(CohortLabels, ShowsTheVersionOnlyWhenSiblingsDifferByIt) {
  std::vector<NormalizedRecord> cohorts = {cohort("sort", "default"), cohort("sort", "default"),
                                           cohort("scan", "default")};
  cohorts[1].benchmark_version = 2;
  EXPECT_EQ(labels_of(cohorts),
            (std::vector<std::string>{"sort/default/v1", "sort/default/v2", "scan/default"}));
}

TEST(CohortLabels, TellsSiblingsOfTheSameParametersApartByTheShortestUniqueHashPrefix) {
  std::vector<NormalizedRecord> cohorts = {
      cohort("sort", "default", {{"n", "200000"}}), cohort("sort", "default", {{"n", "200000"}}),
      cohort("sort", "default", {{"n", "200000"}}), cohort("sort", "default", {{"n", "500000"}})};
  cohorts[1].hardware_profile_id = "hw-1a2b9c4d5e6f7a8b";  // shares 1a2b with the first
  cohorts[2].hardware_profile_id = "hw-ffee0011";
  EXPECT_EQ(labels_of(cohorts), (std::vector<std::string>{
                                    "sort/default (n=200000, hw-1a2b3)",
                                    "sort/default (n=200000, hw-1a2b9)",
                                    "sort/default (n=200000, hw-ffee)",
                                    "sort/default (n=500000)",
                                }));
}

TEST(CohortLabels, TriesHardwareThenSoftwareThenRecipe) {
  std::vector<NormalizedRecord> software = {cohort("sort", "default"), cohort("sort", "default")};
  software[1].software_profile_id = "sw-9999aaaa";
  EXPECT_EQ(labels_of(software),
            (std::vector<std::string>{"sort/default (sw-5e6f)", "sort/default (sw-9999)"}));
  std::vector<NormalizedRecord> recipe = {cohort("sort", "default"), cohort("sort", "default")};
  recipe[1].recipe_fingerprint = "3f2a0000";
  EXPECT_EQ(labels_of(recipe), (std::vector<std::string>{"sort/default (recipe 3f2a9)",
                                                         "sort/default (recipe 3f2a0)"}));
  // Hardware differs and software too: the machine alone tells them apart.
  std::vector<NormalizedRecord> both = {cohort("sort", "default"), cohort("sort", "default")};
  both[1].hardware_profile_id = "hw-77778888";
  both[1].software_profile_id = "sw-9999aaaa";
  EXPECT_EQ(labels_of(both),
            (std::vector<std::string>{"sort/default (hw-1a2b)", "sort/default (hw-7777)"}));
}

TEST(CohortLabels, GoesOnToTheNextFieldForSiblingsThatShareTheFirst) {
  std::vector<NormalizedRecord> cohorts = {cohort("sort", "default"), cohort("sort", "default"),
                                           cohort("sort", "default")};
  cohorts[1].software_profile_id = "sw-0000bbbb";
  cohorts[2].hardware_profile_id = "hw-cccc0000";
  EXPECT_EQ(labels_of(cohorts), (std::vector<std::string>{
                                    "sort/default (hw-1a2b, sw-5e6f)",
                                    "sort/default (hw-1a2b, sw-0000)",
                                    "sort/default (hw-cccc)",
                                }));
}

TEST(CohortLabels, NamesARecordWithoutParametersApartFromOneWithThem) {
  // A cohort whose records predate the parameters beside one whose records carry them.
  std::vector<NormalizedRecord> cohorts = {cohort("sort", "default"),
                                           cohort("sort", "default", {{"n", "200000"}})};
  cohorts[1].recipe_fingerprint = "77aa01c2d3e4";
  EXPECT_EQ(labels_of(cohorts),
            (std::vector<std::string>{"sort/default", "sort/default (n=200000)"}));
}

TEST(CohortLabels, KeepsTheLegacyAndInvalidTitles) {
  NormalizedRecord old;
  old.benchmark_id = "decode";
  old.device = "NVIDIA L40S";
  NormalizedRecord incomplete = cohort("sort", "default");
  incomplete.software_profile_id = "";
  EXPECT_EQ(labels_of({old, incomplete, cohort("sort", "default")}),
            (std::vector<std::string>{"Legacy v1 (decode, NVIDIA L40S)", "Invalid v2 (sort)",
                                      "sort/default"}));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
