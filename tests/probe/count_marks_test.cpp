// The marks the probe leaves for callgrind in a counted run (probe/count_marks.hpp): every
// run and region boundary, in order, in the grammar count/region_counts.hpp reads, sent to
// a sink here instead of Valgrind.

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "count/callgrind_output.hpp"
#include "count/region_counts.hpp"
#include "probe/count_marks.hpp"
#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

std::vector<std::string> g_marks;

void keep(const std::string& name) {
  g_marks.push_back(name);
}

class ProbeCountMarks : public ProbeTest {
 protected:
  void SetUp() override {
    ProbeTest::SetUp();
    g_marks.clear();
    detail::set_count_mark_sink_for_testing(keep);
    detail::set_recording(detail::kRecordCount, true);
  }
  void TearDown() override {
    detail::set_recording(detail::kRecordCount, false);
    detail::set_count_mark_sink_for_testing(nullptr);
    ProbeTest::TearDown();
  }
};

void walk(int depth) {
  PERFGATE_REGION("walk");
  if (depth > 1) walk(depth - 1);
}

TEST_F(ProbeCountMarks, MarksEveryRunAndRegionBoundaryInOrder) {
  { PERFGATE_REGION("setup"); }  // outside any run: marked with run 0
  for (int i = 0; i < 2; ++i) {
    probe::Run run;
    PERFGATE_REGION("frame");
    { PERFGATE_REGION("decode"); }
    walk(3);  // recursion: only the outermost call is marked
  }
  EXPECT_EQ(g_marks, (std::vector<std::string>{
                         "perfgate-probe E 0 0 0 0 setup",
                         "perfgate-probe X 0 setup",
                         "perfgate-probe R 0 1 -",
                         "perfgate-probe E 0 0 1 0 frame",
                         "perfgate-probe E 0 0 1 1 frame/decode",
                         "perfgate-probe X 0 frame/decode",
                         "perfgate-probe E 0 0 1 1 frame/walk",
                         "perfgate-probe X 0 frame/walk",
                         "perfgate-probe X 0 frame",
                         "perfgate-probe r 0 1",
                         "perfgate-probe R 0 2 -",
                         "perfgate-probe E 0 0 2 0 frame",
                         "perfgate-probe E 0 0 2 1 frame/decode",
                         "perfgate-probe X 0 frame/decode",
                         "perfgate-probe E 0 0 2 1 frame/walk",
                         "perfgate-probe X 0 frame/walk",
                         "perfgate-probe X 0 frame",
                         "perfgate-probe r 0 2",
                     }));
}

TEST_F(ProbeCountMarks, SaysHowManyWarmupsWereSet) {
  set_warmup_runs(2);
  { probe::Run run; }
  EXPECT_EQ(g_marks, (std::vector<std::string>{"perfgate-probe R 0 1 2", "perfgate-probe r 0 1"}));
}

TEST_F(ProbeCountMarks, MarksNothingWhenNotACountedRun) {
  detail::set_recording(detail::kRecordCount, false);
  {
    probe::Run run;
    PERFGATE_REGION("frame");
  }
  EXPECT_TRUE(g_marks.empty());
}

TEST_F(ProbeCountMarks, StopsAtTheCapWithOneLastMarkSayingSo) {
  {
    probe::Run run;
    for (unsigned long i = 0; i < detail::kMaxCountMarks; ++i) {
      PERFGATE_REGION("step");
    }
  }
  ASSERT_EQ(g_marks.size(), detail::kMaxCountMarks + 1);
  EXPECT_EQ(g_marks[detail::kMaxCountMarks - 1], "perfgate-probe E 0 0 1 0 step");
  EXPECT_EQ(g_marks.back(), "perfgate-probe capped 50000");
  // Marking is off from there on: region calls take the common path again.
  EXPECT_FALSE(detail::recording(detail::kRecordCount));
}

// The marks as callgrind would dump them, each dump holding `cost` instructions since the
// one before, read back by the reader perfgate uses.
TEST_F(ProbeCountMarks, TheReaderAttributesTheDumpsBetweenAMarkPairToItsRegion) {
  for (int i = 0; i < 3; ++i) {
    probe::Run run;
    PERFGATE_REGION("frame");
    { PERFGATE_REGION("decode"); }
  }
  CallgrindProfile profile;
  profile.events = {"Ir"};
  std::uint64_t cost = 100;
  for (const auto& mark : g_marks) {
    profile.parts.push_back(CallgrindPart{"Client Request: " + mark, {{"Ir", cost}}});
    cost += 10;
  }
  profile.parts.push_back(CallgrindPart{"Program termination", {{"Ir", 5}}});
  const RegionCounts counts = region_counts(profile);
  // Marks per run: R, E frame, E decode, X decode, X frame, r. A dump holds what ran since
  // the one before, so frame holds the dumps at E decode, X decode and X frame, decode the
  // one at X decode. Run k (from 0) starts at mark 6k, whose dump costs 100 + 60k: decode
  // 100 + 10 (6k + 3), frame 3 x 100 + 10 (18k + 9). Run 1 is the implicit warmup; runs 2
  // and 3 (k = 1, 2) are measured.
  EXPECT_EQ(counts.measured_runs, 2u);
  ASSERT_EQ(counts.regions.size(), 2u);
  EXPECT_EQ(counts.regions[0],
            (RegionCount{"frame", 0, ((180 + 190 + 200) + (240 + 250 + 260)) / 2.0}));
  EXPECT_EQ(counts.regions[1], (RegionCount{"frame/decode", 1, (190 + 250) / 2.0}));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
