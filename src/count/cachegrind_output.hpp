#pragma once
// Cachegrind's output file (valgrind --tool=cachegrind --cachegrind-out-file=...): the
// events it counted and their totals over the whole process. perfgate reads only the
// header's `events:` line and the `summary:` line; the per-line body between them is
// what cg_annotate reads and is skipped.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

/// One process's totals: event name (Ir, I1mr, ILmr, Dr, D1mr, DLmr, Dw, D1mw, DLmw) ->
/// its count, in the order the file's `events:` line names them.
struct CachegrindTotals {
  std::vector<std::string> events;
  std::map<std::string, std::uint64_t> totals;
  std::string command;  ///< the `cmd:` line, for messages; may be empty

  bool operator==(const CachegrindTotals&) const = default;
};

/// Parses the text of one output file. `where` names it in messages. Throws
/// Error(kDataError, "<where>:<line>: <reason>. <fix>") when there is no `events:` line
/// before the body, no `summary:` line, an event name repeats, or the summary does not
/// hold one non-negative integer below 2^64 for each event.
CachegrindTotals parse_cachegrind_output(std::string_view text, const std::string& where);

/// Reads and parses the file at `path`; Error(kIoError) when it cannot be read.
CachegrindTotals read_cachegrind_output(const std::filesystem::path& path);

}  // namespace perfgate
