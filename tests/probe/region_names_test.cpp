// Region names the caller controls: ids stay unique paths whatever the names hold, and the
// C entry points name regions by their text, not by the buffer that held it.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "perfgate/probe.h"
#include "probe/probe_fixture.hpp"
#include "profile/probe_report_reader.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

using RegionNames = ProbeTest;

std::set<std::string> region_ids(const Json& report) {
  std::set<std::string> ids;
  for (const Json& region : report["regions"]) ids.insert(region["id"].get<std::string>());
  return ids;
}

TEST_F(RegionNames, EscapesSlashesSoANameNeverCollidesWithANestedPath) {
  {
    probe::Run run;
    { PERFGATE_REGION("a/b"); }
    {
      PERFGATE_REGION("a");
      { PERFGATE_REGION("b"); }
    }
    { PERFGATE_REGION("100%"); }
    { PERFGATE_REGION(""); }
  }
  const Json r = report();
  EXPECT_EQ(region_ids(r), (std::set<std::string>{"a%2Fb", "a", "a/b", "100%25", "(unnamed)"}));
  double sum = r["runs"][0]["residual"]["wall_time_fraction"].get<double>();
  for (const Json& row : r["runs"][0]["regions"]) {
    if (row["region_id"] != "a/b") sum += row["wall_time_fraction"].get<double>();
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

TEST_F(RegionNames, KeepsIdsUniqueWhenNamesLookAlikeInTheReport) {
  {
    probe::Run run;
    { PERFGATE_REGION(""); }
    { PERFGATE_REGION("(unnamed)"); }
    { PERFGATE_REGION("bad\xff"); }
    { PERFGATE_REGION("bad\\xff"); }
    { PERFGATE_REGION("caf\xc3\xa9"); }
  }
  const Json r = report();
  EXPECT_EQ(region_ids(r), (std::set<std::string>{"(unnamed)", "%28unnamed)", "bad%FF", "bad\\xff",
                                                  "caf\xc3\xa9"}));
  // perfgate's own reader takes the report: no id is listed twice.
  const perfgate::profile::ProbeReport read = perfgate::profile::read_probe_report(r, "probe.json");
  EXPECT_EQ(read.regions.size(), 5u);
}

TEST_F(RegionNames, NamesCRegionsByTheirTextWhenTheCallerReusesOneBuffer) {
  char name[16];
  perfgate_probe_run_begin();
  for (const char* text : {"decode", "render", "decode"}) {
    std::snprintf(name, sizeof name, "%s", text);
    perfgate_probe_region_begin(name);
    perfgate_probe_region_end();
  }
  perfgate_probe_region_begin(nullptr);
  perfgate_probe_region_end();
  perfgate_probe_run_end();
  const Json run = report()["runs"][0];
  EXPECT_EQ(run_row(run, "decode")["calls"], 2);
  EXPECT_EQ(run_row(run, "render")["calls"], 1);
  EXPECT_EQ(run_row(run, "(null)")["calls"], 1);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
