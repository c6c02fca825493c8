#pragma once
// The runs of a bisection, kept as they are taken (<out>/samples.jsonl, docs/bisect.md), so
// that `perfgate bisect --resume` continues an interrupted bisection from what it measured:
// the search is deterministic, so replaying the same values makes it ask for the same runs
// in the same order, and it measures afresh from where the log ends. One JSON object a line:
// the first says what is bisected (good, bad, case, metric, ...); each other is one run,
// {"commit": SHA, "value": V} or {"commit": SHA, "failed": "why"}. Each line is appended and
// flushed whole; after a SIGKILL only the last line can be torn, and it is ignored.
#include <cstdio>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>

#include "model/json.hpp"

namespace perfgate::bisect {

struct LoggedRun {
  std::string commit;
  std::optional<double> value;  ///< nullopt: the commit could not be measured
  std::string failure;          ///< why, when it could not
};

class SampleLog {
 public:
  /// Starts a new log at `file` (which must not exist) with `header`. Error(kIoError).
  static SampleLog create(const std::filesystem::path& file, const Json& header);
  /// Opens an existing log to continue it: Error(kDataError) when its header is not
  /// `header` (the bisection it holds is another one: the message names the first field
  /// that differs), Error(kNoInput) when it does not exist.
  static SampleLog resume(const std::filesystem::path& file, const Json& header);

  SampleLog(SampleLog&& other) noexcept;
  SampleLog& operator=(SampleLog&&) = delete;
  ~SampleLog();

  /// The logged runs not yet replayed, oldest first.
  std::deque<LoggedRun>& pending() { return pending_; }
  /// Appends a run and flushes it. Error(kIoError).
  void append(const LoggedRun& run);
  /// Drops the runs not yet replayed, from the file too (the search asked for another run
  /// than the log holds next: what follows was measured for another path of the search).
  void discard_pending();
  /// Runs replayed from the log so far.
  std::size_t replayed() const { return replayed_; }
  void note_replayed() { ++replayed_; }

 private:
  SampleLog(std::filesystem::path file, std::FILE* stream, Json header);
  std::filesystem::path file_;
  std::FILE* stream_ = nullptr;
  Json header_;
  std::deque<LoggedRun> pending_;
  std::size_t replayed_ = 0;
  std::size_t kept_lines_ = 0;  ///< lines after the header that stay when pending is dropped
};

}  // namespace perfgate::bisect
