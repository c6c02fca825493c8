// A translation unit built with PERFGATE_PROBE_DISABLE: the macro is gone and Run is an
// empty type, beside other units of the same program that use the enabled probe.
#define PERFGATE_PROBE_DISABLE
#include <type_traits>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

static_assert(std::is_empty_v<Run>);

class CompiledOutProbe : public ProbeTest {};

TEST_F(CompiledOutProbe, RecordsNoRunsAndNoRegions) {
  {
    probe::Run run;
    PERFGATE_REGION("decode");
  }
  const Json doc = report();
  EXPECT_EQ(doc["runs"].size(), 0u);
  EXPECT_EQ(doc["regions"].size(), 0u);
  EXPECT_EQ(doc["config"]["enabled"], true);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
