// The cases of tests/fixtures/units.json, which the browser tests check against the
// viewer's copy of the rule (web/viewer/units.js): the terminal, the Markdown and the
// dashboard write a quantity the same way.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "model/json.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(UnitsFixture, EveryCaseIsWrittenAsTheViewerWritesIt) {
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/tests/fixtures/units.json");
  ASSERT_TRUE(in) << "tests/fixtures/units.json";
  const Json fixture = Json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  ASSERT_GE(fixture.at("cases").size(), 10u);
  for (const Json& c : fixture.at("cases")) {
    const DisplayUnit display =
        choose_display_unit(c.at("reference").get<double>(), c.at("unit").get<std::string>());
    EXPECT_EQ(format_in(c.at("value").get<double>(), display), c.at("text").get<std::string>())
        << c.dump();
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
