#include "count/callgrind_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "model/error.hpp"

namespace perfgate {
namespace {

constexpr const char* kRerunFix =
    "The file is written by valgrind --tool=callgrind; run the benchmark again, and if it "
    "repeats, see the run's worker log for valgrind's own message";
constexpr std::string_view kTermination = "Program termination";

[[noreturn]] void reject(const std::string& where, std::size_t line, const std::string& reason) {
  throw Error(ExitCode::kDataError, fmt::format("{}:{}: {}. {}", where, line, reason, kRerunFix));
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

std::string_view trimmed(std::string_view text) {
  const auto start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(start, end - start + 1);
}

/// A part while it is read: what it has seen so far.
struct PartState {
  std::size_t first_line = 0;
  std::vector<std::string> events;
  std::size_t events_line = 0;
  bool summary = false;
  bool totals = false;
};

class Reader {
 public:
  explicit Reader(const std::string& where) : where_(where) {}

  void line(std::string_view text, std::size_t number) {
    number_ = number;
    if (starts_with(text, "part:")) {
      begin_part();
    } else if (starts_with(text, "events:")) {
      events(text.substr(7));
    } else if (starts_with(text, "summary:")) {
      counts(text.substr(8), "summary", /*summary=*/true);
    } else if (starts_with(text, "totals:")) {
      counts(text.substr(7), "totals", /*summary=*/false);
    } else if (starts_with(text, "desc: Trigger:")) {
      part().trigger = std::string(trimmed(text.substr(14)));
    } else if (starts_with(text, "cmd:") && profile_.command.empty()) {
      profile_.command = std::string(trimmed(text.substr(4)));
    }
  }

  CallgrindProfile finish() {
    if (profile_.parts.empty()) reject(where_, number_, "no `events:` line");
    end_part();
    const std::string& last = profile_.parts.back().trigger;
    if (last != kTermination) {
      reject(where_, number_,
             fmt::format("the last dump's trigger is '{}', not '{}': the process was killed "
                         "before valgrind wrote its totals",
                         last, kTermination));
    }
    return std::move(profile_);
  }

 private:
  CallgrindPart& part() {
    if (!state_) begin_part();
    return profile_.parts.back();
  }

  void begin_part() {
    if (state_) end_part();
    profile_.parts.emplace_back();
    state_ = PartState{number_, {}, 0, false, false};
  }

  void end_part() {
    if (state_ && !state_->summary && !state_->totals) {
      reject(where_, number_,
             fmt::format("the dump that begins on line {} has no `summary:` or `totals:` line",
                         state_->first_line));
    }
  }

  void events(std::string_view text) {
    part();
    if (!state_->events.empty()) {
      reject(where_, number_,
             fmt::format("a second `events:` line in one dump (the first is line {})",
                         state_->events_line));
    }
    for (const std::string_view name : words(text)) {
      for (const auto& known : state_->events) {
        if (known == name)
          reject(where_, number_, fmt::format("the event {} is named twice", name));
      }
      state_->events.emplace_back(name);
    }
    if (state_->events.empty()) reject(where_, number_, "the `events:` line names no event");
    state_->events_line = number_;
    if (profile_.events.empty()) {
      profile_.events = state_->events;
    } else if (profile_.events != state_->events) {
      reject(where_, number_,
             fmt::format("this dump counts the events {}, the first one {}",
                         fmt::join(state_->events, " "), fmt::join(profile_.events, " ")));
    }
  }

  void counts(std::string_view text, const char* key, bool summary) {
    CallgrindPart& into = part();
    if (state_->events.empty()) {
      reject(where_, number_, fmt::format("a `{}:` line before any `events:` line", key));
    }
    if ((summary && state_->summary) || (!summary && state_->totals)) {
      reject(where_, number_, fmt::format("a second `{}:` line in one dump", key));
    }
    const auto values = words(text);
    if (values.size() > state_->events.size()) {
      reject(where_, number_,
             fmt::format("the `{}:` line holds {} value(s) for {} event(s) ({})", key,
                         values.size(), state_->events.size(), fmt::join(state_->events, " ")));
    }
    EventCounts parsed;
    for (std::size_t i = 0; i < state_->events.size(); ++i) {
      std::uint64_t value = 0;
      if (i < values.size()) {
        const auto [end, error] =
            std::from_chars(values[i].data(), values[i].data() + values[i].size(), value);
        if (error != std::errc() || end != values[i].data() + values[i].size()) {
          reject(where_, number_,
                 fmt::format("the `{}:` line's value for {} is '{}', not a count below 2^64", key,
                             state_->events[i], values[i]));
        }
      }
      parsed[state_->events[i]] = value;
    }
    // The summary is what callgrind counted; the totals only add up the lines it wrote,
    // and are the fallback of a part without a summary.
    if (summary || !state_->summary) into.counts = std::move(parsed);
    (summary ? state_->summary : state_->totals) = true;
  }

  const std::string& where_;
  CallgrindProfile profile_;
  std::optional<PartState> state_;
  std::size_t number_ = 0;
};

}  // namespace

EventCounts CallgrindProfile::totals() const {
  EventCounts sum;
  for (const auto& event : events) sum[event] = 0;
  for (const auto& part : parts) {
    for (const auto& [event, count] : part.counts) sum[event] += count;
  }
  return sum;
}

CallgrindProfile parse_callgrind_output(std::string_view text, const std::string& where) {
  Reader reader(where);
  std::size_t number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    reader.line(text.substr(at, end - at), ++number);
    at = end + 1;
  }
  return reader.finish();
}

CallgrindProfile read_callgrind_output(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kIoError, fmt::format("{}: cannot read: {}. Check the folder's "
                                                "permissions and free space",
                                                path.string(), std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_callgrind_output(text.str(), path.string());
}

}  // namespace perfgate
