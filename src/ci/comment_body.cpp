#include "ci/comment_body.hpp"

#include <algorithm>
#include <regex>

#include "model/error.hpp"
#include "model/visible_text.hpp"
#include "report/markdown.hpp"

namespace perfgate {
namespace {

constexpr const char* kFoldOpen = "<details><summary>Full report</summary>\n\n";
constexpr const char* kFoldClose = "\n\n</details>\n";

std::string trimmed_lines(const std::string& text) {
  const std::size_t first = text.find_first_not_of("\n\r ");
  if (first == std::string::npos) return "";
  const std::size_t last = text.find_last_not_of("\n\r ");
  return text.substr(first, last - first + 1);
}

/// The report's first line when it is a heading: a report with no details marker still
/// says what it is above the fold.
std::string first_heading(const std::string& report) {
  const std::string text = trimmed_lines(report);
  const std::string line = text.substr(0, text.find('\n'));
  return line.rfind('#', 0) == 0 ? line : std::string("**perfgate report**");
}

/// `text` cut at the last line break that leaves it at most `room` bytes.
std::string cut_at_line(const std::string& text, std::size_t room) {
  if (text.size() <= room) return text;
  const std::size_t end = text.rfind('\n', room);
  return end == std::string::npos ? std::string() : text.substr(0, end);
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
         (text.empty() || text.back() == '\n' ? 0 : 1);
}

}  // namespace

std::string comment_marker(const std::string& key) {
  if (!std::regex_match(key, std::regex("[A-Za-z0-9._-]{1,64}")))
    throw Error(ExitCode::kUsage, "--key " + visible_text(key.substr(0, 80)) +
                                      ": must be 1 to 64 letters, digits, dots, dashes or "
                                      "underscores, e.g. --key nightly.");
  return "<!-- perfgate-comment: " + key + " -->";
}

std::string comment_body(const std::string& report, const std::string& marker,
                         const std::string& footer, std::size_t limit) {
  std::string top;
  std::string details;
  if (const std::size_t at = report.find(kReportDetailsMarker); at != std::string::npos) {
    top = trimmed_lines(report.substr(0, at));
    details = trimmed_lines(report.substr(at + std::string(kReportDetailsMarker).size()));
  } else {
    top = first_heading(report);
    details = trimmed_lines(report);
  }
  const std::string head = marker + "\n" + top + "\n\n";
  const std::string tail = "\n" + footer + "\n";
  if (details.empty()) return cut_at_line(head + tail, limit);
  const std::size_t fixed =
      head.size() + std::string(kFoldOpen).size() + std::string(kFoldClose).size() + tail.size();
  if (fixed + details.size() <= limit) return head + kFoldOpen + details + kFoldClose + tail;
  // Too long for the provider: keep the top whole and as much of the tables as fits, with
  // a line saying what was left out and where the whole report is.
  const std::size_t total_lines = line_count(details);
  const std::string note_shape =
      "\n\n… the report is longer than a comment may be: 0000000000 of its lines are left "
      "out here. The whole report is in the job's summary and files.";
  const std::size_t room =
      limit > fixed + note_shape.size() ? limit - fixed - note_shape.size() : 0;
  const std::string kept = cut_at_line(details, room);
  const std::string note = "\n\n… the report is longer than a comment may be: " +
                           std::to_string(total_lines - line_count(kept)) +
                           " of its lines are left out here. The whole report is in the "
                           "job's summary and files.";
  return cut_at_line(head + kFoldOpen + kept + note + kFoldClose + tail, limit);
}

}  // namespace perfgate
