#pragma once
// Callgrind's output file (valgrind --tool=callgrind --combine-dumps=yes
// --callgrind-out-file=...): one part per dump, each with the reason it was written (its
// `desc: Trigger:` line) and the events counted since the dump before it. perfgate reads
// only each part's header, its `events:` line and its `summary:` (or `totals:`) line; the
// per-function body between them is what callgrind_annotate reads and is skipped. The probe
// asks for a dump at each region boundary of a counted run (count/region_counts.hpp), and
// callgrind dumps once more when the process ends.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

/// Event name (Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw) -> its count.
using EventCounts = std::map<std::string, std::uint64_t>;

/// One dump: why it was written and what was counted since the previous one.
struct CallgrindPart {
  /// The text after "desc: Trigger: ", e.g. "Program termination" or "Client Request:
  /// perfgate-probe E 0 0 1 0 decode"; empty when the part names none.
  std::string trigger;
  EventCounts counts;

  bool operator==(const CallgrindPart&) const = default;
};

/// One process's file.
struct CallgrindProfile {
  std::vector<std::string> events;  ///< in the order the first `events:` line names them
  std::vector<CallgrindPart> parts;
  std::string command;  ///< the `cmd:` line, for messages; may be empty

  /// The whole process: every part's counts added.
  EventCounts totals() const;

  bool operator==(const CallgrindProfile&) const = default;
};

/// Parses the text of one output file. `where` names it in messages. Throws
/// Error(kDataError, "<where>:<line>: <reason>. <fix>") when a part has no `events:` line
/// before its counts, names an event twice or differently from the first part, has no
/// `summary:` or `totals:` line, or one holding more values than events or a value that is
/// not a non-negative integer below 2^64; and when the last part is not the dump at
/// "Program termination" (the process was killed before valgrind wrote its totals).
/// Trailing events left out of a summary count 0, as callgrind writes them.
CallgrindProfile parse_callgrind_output(std::string_view text, const std::string& where);

/// Reads and parses the file at `path`; Error(kIoError) when it cannot be read.
CallgrindProfile read_callgrind_output(const std::filesystem::path& path);

}  // namespace perfgate
