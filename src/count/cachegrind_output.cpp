#include "count/cachegrind_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "model/error.hpp"

namespace perfgate {
namespace {

constexpr const char* kRerunFix =
    "The file is written by valgrind --tool=cachegrind; run the benchmark again, and if it "
    "repeats, see the run's worker log for valgrind's own message";

[[noreturn]] void reject(const std::string& where, std::size_t line, const std::string& reason,
                         const std::string& fix = kRerunFix) {
  throw Error(ExitCode::kDataError, fmt::format("{}:{}: {}. {}", where, line, reason, fix));
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(" \t\r", at);
    if (start == std::string_view::npos) break;
    std::size_t end = text.find_first_of(" \t\r", start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    at = end;
  }
  return out;
}

bool starts_with(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}

}  // namespace

CachegrindTotals parse_cachegrind_output(std::string_view text, const std::string& where) {
  CachegrindTotals out;
  bool have_events = false;
  bool have_summary = false;
  std::size_t events_line = 0;
  std::size_t line_number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (starts_with(line, "events:")) {
      if (have_events) {
        reject(where, line_number,
               fmt::format("a second `events:` line (the first is line {})", events_line));
      }
      have_events = true;
      events_line = line_number;
      for (const std::string_view name : words(line.substr(7))) {
        if (out.totals.count(std::string(name)) != 0) {
          reject(where, line_number, fmt::format("the event {} is named twice", name));
        }
        out.events.emplace_back(name);
        out.totals[std::string(name)] = 0;
      }
      if (out.events.empty()) reject(where, line_number, "the `events:` line names no event");
    } else if (starts_with(line, "cmd:")) {
      const auto command = line.substr(4);
      const auto start = command.find_first_not_of(' ');
      if (start != std::string_view::npos) out.command = std::string(command.substr(start));
    } else if (starts_with(line, "summary:")) {
      if (!have_events) {
        reject(where, line_number, "a `summary:` line before any `events:` line");
      }
      if (have_summary) reject(where, line_number, "a second `summary:` line");
      have_summary = true;
      const auto values = words(line.substr(8));
      if (values.size() != out.events.size()) {
        reject(where, line_number,
               fmt::format("the summary holds {} value(s) for {} event(s) ({})", values.size(),
                           out.events.size(), fmt::join(out.events, " ")));
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint64_t value = 0;
        const auto [end_of_number, error] =
            std::from_chars(values[i].data(), values[i].data() + values[i].size(), value);
        if (error != std::errc() || end_of_number != values[i].data() + values[i].size()) {
          reject(where, line_number,
                 fmt::format("the summary's value for {} is '{}', not a count below 2^64",
                             out.events[i], values[i]));
        }
        out.totals[out.events[i]] = value;
      }
    }
  }
  if (!have_events) reject(where, line_number, "no `events:` line");
  if (!have_summary) {
    reject(where, line_number,
           "no `summary:` line: the process was killed before valgrind wrote its totals");
  }
  return out;
}

CachegrindTotals read_cachegrind_output(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kIoError, fmt::format("{}: cannot read: {}. Check the folder's "
                                                "permissions and free space",
                                                path.string(), std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cachegrind_output(text.str(), path.string());
}

}  // namespace perfgate
