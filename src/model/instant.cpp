#include "model/instant.hpp"

#include <fmt/format.h>

#include <cctype>
#include <tuple>

namespace perfgate {
namespace {

// Reads exactly `digits` decimal digits at `pos`; advances pos.
std::optional<int> read_number(std::string_view text, std::size_t& pos, int digits) {
  if (pos + static_cast<std::size_t>(digits) > text.size()) return std::nullopt;
  int value = 0;
  for (int i = 0; i < digits; ++i) {
    const char c = text[pos + static_cast<std::size_t>(i)];
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += static_cast<std::size_t>(digits);
  return value;
}

bool consume(std::string_view text, std::size_t& pos, char expected) {
  if (pos >= text.size() || text[pos] != expected) return false;
  ++pos;
  return true;
}

bool leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm): exact for every
// proleptic Gregorian date, with no time zone or locale involved.
std::int64_t days_from_civil(int year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const int year_of_era = year - era * 400;
  const int day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return static_cast<std::int64_t>(era) * 146097 + day_of_era - 719468;
}

struct Parsed {
  std::int64_t seconds = 0;  ///< since the epoch, UTC
  int micros = 0;
};

std::optional<Parsed> parse(std::string_view text) {
  std::size_t pos = 0;
  const auto year = read_number(text, pos, 4);
  if (!year || !consume(text, pos, '-')) return std::nullopt;
  const auto month = read_number(text, pos, 2);
  if (!month || *month < 1 || *month > 12 || !consume(text, pos, '-')) return std::nullopt;
  const auto day = read_number(text, pos, 2);
  if (!day || *day < 1 || *day > days_in_month(*year, *month)) return std::nullopt;
  Parsed parsed;
  parsed.seconds = days_from_civil(*year, *month, *day) * 86400;
  if (pos == text.size()) return parsed;
  if (!consume(text, pos, 'T') && !consume(text, pos, ' ')) return std::nullopt;
  const auto hour = read_number(text, pos, 2);
  if (!hour || *hour > 23 || !consume(text, pos, ':')) return std::nullopt;
  const auto minute = read_number(text, pos, 2);
  if (!minute || *minute > 59) return std::nullopt;
  int second = 0;
  if (consume(text, pos, ':')) {
    const auto s = read_number(text, pos, 2);
    if (!s || *s > 59) return std::nullopt;
    second = *s;
    if (consume(text, pos, '.') || consume(text, pos, ',')) {
      int digits = 0;
      int micros = 0;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        if (digits < 6) micros = micros * 10 + (text[pos] - '0');
        ++digits;
        ++pos;
      }
      if (digits == 0) return std::nullopt;
      for (int i = digits; i < 6; ++i) micros *= 10;
      parsed.micros = micros;
    }
  }
  parsed.seconds += *hour * 3600 + *minute * 60 + second;
  if (pos == text.size() || consume(text, pos, 'Z') || consume(text, pos, 'z')) {
    return pos == text.size() ? std::optional<Parsed>(parsed) : std::nullopt;
  }
  const char sign = text[pos];
  if (sign != '+' && sign != '-') return std::nullopt;
  ++pos;
  const auto offset_hours = read_number(text, pos, 2);
  if (!offset_hours || *offset_hours > 23) return std::nullopt;
  consume(text, pos, ':');
  const auto offset_minutes = read_number(text, pos, 2);
  if (!offset_minutes || *offset_minutes > 59 || pos != text.size()) return std::nullopt;
  const int offset = (*offset_hours * 3600 + *offset_minutes * 60) * (sign == '+' ? 1 : -1);
  parsed.seconds -= offset;  // 22:00+09:00 is 13:00 UTC
  return parsed;
}

// Civil date of a day count since 1970-01-01 (inverse of days_from_civil).
std::tuple<int, int, int> civil_from_days(std::int64_t days) {
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<int>(days - era * 146097);
  const int year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int mp = (5 * day_of_year + 2) / 153;
  const int day = day_of_year - (153 * mp + 2) / 5 + 1;
  const int month = mp < 10 ? mp + 3 : mp - 9;
  const int year = static_cast<int>(year_of_era + era * 400) + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

}  // namespace

std::optional<std::int64_t> parse_instant_us(std::string_view text) {
  const auto parsed = parse(text);
  if (!parsed) return std::nullopt;
  return parsed->seconds * 1000000 + parsed->micros;
}

std::optional<std::string> normalize_utc_timestamp(std::string_view text) {
  const auto parsed = parse(text);
  if (!parsed) return std::nullopt;
  std::int64_t days = parsed->seconds / 86400;
  std::int64_t rest = parsed->seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  const auto [year, month, day] = civil_from_days(days);
  std::string out = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", year, month, day,
                                rest / 3600, rest % 3600 / 60, rest % 60);
  if (parsed->micros != 0) {
    std::string fraction = fmt::format("{:06}", parsed->micros);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += "." + fraction;
  }
  return out + "Z";
}

bool instant_before(const std::string& a, const std::string& b) {
  const auto x = parse_instant_us(a);
  const auto y = parse_instant_us(b);
  if (x && y) return *x < *y;
  if (!x && !y) return a < b;
  return !x;  // text that is no instant sorts first
}

}  // namespace perfgate
