#include "model/time_window.hpp"

#include <cctype>
#include <regex>

#include "model/error.hpp"
#include "model/visible_text.hpp"

namespace perfgate {

namespace {

std::string format_utc(std::time_t when, const char* format) {
  std::tm utc{};
  ::gmtime_r(&when, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

}  // namespace

std::string iso_utc(std::time_t when) {
  return format_utc(when, "%Y-%m-%dT%H:%M:%SZ");
}

std::string file_stamp_utc(std::time_t when) {
  return format_utc(when, "%Y%m%dT%H%M%SZ");
}

namespace {

bool window_leap_year(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/// Whether "YYYY-MM-DD" (the first 10 characters of `text`) is a day of the calendar.
bool window_calendar_date(const std::string& text) {
  const int year = std::stoi(text.substr(0, 4));
  const int month = std::stoi(text.substr(5, 2));
  const int day = std::stoi(text.substr(8, 2));
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= kDays[month - 1] + (month == 2 && window_leap_year(year) ? 1 : 0);
}

/// The text as a message may show it: its first 64 characters, control characters
/// visible (a NUL would cut the message short, an ESC would drive the terminal).
std::string shown_window_text(const std::string& text) {
  return visible_text(text.substr(0, 64)) + (text.size() > 64 ? "..." : "");
}

}  // namespace

std::string since_to_timestamp(const std::string& text, std::time_t now, const std::string& flag) {
  static const std::regex duration(R"(([0-9]{1,6})([mhdw]))");
  static const std::regex date(R"([0-9]{4}-[0-9]{2}-[0-9]{2})");
  static const std::regex instant(R"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)");
  std::smatch match;
  if (std::regex_match(text, match, duration)) {
    const long long amount = std::stoll(match[1].str());
    const char unit = match[2].str()[0];
    const long long seconds = unit == 'm'   ? 60
                              : unit == 'h' ? 3600
                              : unit == 'd' ? 86400
                                            : 7 * 86400;
    return iso_utc(now - static_cast<std::time_t>(amount * seconds));
  }
  const bool is_date = std::regex_match(text, date);
  const bool is_instant = !is_date && std::regex_match(text, instant);
  if ((is_date || is_instant) && !window_calendar_date(text)) {
    throw Error(ExitCode::kUsage, flag + ": '" + text +
                                      "' is not a day of the calendar. Give a real date, such "
                                      "as 2026-11-01");
  }
  if (is_instant && (std::stoi(text.substr(11, 2)) > 23 || std::stoi(text.substr(14, 2)) > 59 ||
                     std::stoi(text.substr(17, 2)) > 59)) {
    throw Error(ExitCode::kUsage, flag + ": '" + text +
                                      "' is not a time of day. Hours go from 00 to 23, minutes "
                                      "and seconds from 00 to 59");
  }
  if (is_date) return text + "T00:00:00Z";
  if (is_instant) return text;
  throw Error(ExitCode::kUsage,
              flag + ": '" + shown_window_text(text) +
                  "' is not a time window. Use a duration such as 30d, 12h, 90m or 2w, "
                  "a date such as 2026-11-01, or an instant such as 2026-11-01T08:00:00Z");
}

}  // namespace perfgate
