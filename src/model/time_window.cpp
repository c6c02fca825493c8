#include "model/time_window.hpp"

#include <cctype>
#include <regex>

#include "model/error.hpp"

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
  if (std::regex_match(text, date)) return text + "T00:00:00Z";
  if (std::regex_match(text, instant)) return text;
  throw Error(ExitCode::kUsage,
              flag + ": '" + text +
                  "' is not a time window. Use a duration such as 30d, 12h, 90m or 2w, "
                  "a date such as 2026-11-01, or an instant such as 2026-11-01T08:00:00Z");
}

}  // namespace perfgate
