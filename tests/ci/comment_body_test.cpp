#include "ci/comment_body.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const std::string kMarker = "<!-- perfgate-comment: perfgate -->";

TEST(CommentMarker, NamesTheKey) {
  EXPECT_EQ(comment_marker("gpu-suite.v2"), "<!-- perfgate-comment: gpu-suite.v2 -->");
}

TEST(CommentMarker, RefusesAKeyThatCouldCloseTheHtmlComment) {
  for (const std::string& key :
       std::vector<std::string>{"", "a -->", "a b", std::string(65, 'k'), "x\ny"}) {
    try {
      comment_marker(key);
      FAIL() << key;
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kUsage);
    }
  }
}

TEST(CommentBody, ShowsTheTopAndFoldsTheTables) {
  const std::string report =
      "## perfgate A/B\n\n**REGRESSION**: parse +12%\n\n<!-- perfgate: details -->\n\n"
      "| a | b |\n|---|---|\n| 1 | 2 |\n";
  EXPECT_EQ(comment_body(report, kMarker, "<sub>footer</sub>", kGitHubCommentLimit),
            "<!-- perfgate-comment: perfgate -->\n"
            "## perfgate A/B\n\n**REGRESSION**: parse +12%\n\n"
            "<details><summary>Full report</summary>\n\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n</details>\n\n"
            "<sub>footer</sub>\n");
}

TEST(CommentBody, AReportWithoutTheDetailsMarkerShowsItsHeadingAndFoldsItAll) {
  const std::string report = "# Store report\n\n| a |\n|---|\n| 1 |\n";
  EXPECT_EQ(comment_body(report, kMarker, "f", kGitHubCommentLimit),
            "<!-- perfgate-comment: perfgate -->\n# Store report\n\n"
            "<details><summary>Full report</summary>\n\n"
            "# Store report\n\n| a |\n|---|\n| 1 |\n\n</details>\n\nf\n");
}

TEST(CommentBody, ATooLongReportKeepsItsTopAndSaysHowManyLinesAreLeftOut) {
  std::string report = "## top\n\nverdict\n\n<!-- perfgate: details -->\n";
  for (int i = 0; i < 2000; ++i) report += "| row " + std::to_string(i) + " | value |\n";
  const std::string body = comment_body(report, kMarker, "f", 4000);
  EXPECT_LE(body.size(), 4000u);
  EXPECT_EQ(body.rfind(kMarker + "\n## top\n\nverdict\n\n<details>", 0), 0u);
  EXPECT_NE(body.find("| row 0 | value |\n"), std::string::npos);
  EXPECT_EQ(body.find("| row 1999 |"), std::string::npos);
  // Every row kept is whole, and the note counts those left out.
  const std::size_t kept = [&] {
    std::size_t rows = 0;
    for (std::size_t at = body.find("| row "); at != std::string::npos;
         at = body.find("| row ", at + 1))
      ++rows;
    return rows;
  }();
  EXPECT_NE(body.find("… the report is longer than a comment may be: " +
                      std::to_string(2000 - kept) + " of its lines are left out here."),
            std::string::npos);
  EXPECT_NE(body.find("</details>\n\nf\n"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
