#pragma once
// nvbench --json read at the speed of the hardware: simdjson's on-demand parser walks the
// text once, keeps nothing of it but the ResultFile, and allocates nothing per summary.
// It takes only the happy path: on anything unusual (a missing or mistyped field, an
// escaped string, a number nvbench would not write, a warning to give) it gives up, and
// the caller reads the file with read_nvbench, whose result is then the same and whose
// errors name the file, the JSON path, the reason and the fix. So both readers agree on
// every file, and the messages stay those of the strict reader.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "ingest/result_file.hpp"

namespace perfgate::ingest {

/// What the fast reader made of a text.
enum class FastReadStatus {
  kRead,        ///< an nvbench file, read in full
  kNotNvbench,  ///< the top level lacks nvbench's "devices" and "benchmarks" arrays
  kGaveUp,      ///< nvbench-shaped, but something needs the strict reader
};

/// Reads the nvbench document `text` (from `path`, which anchors the bulk files) into
/// `file`. `capacity` is the size of the buffer holding the text: simdjson reads up to 64
/// bytes past its end, so capacity >= text.size() + 64, or the reader gives up. Throws
/// nothing but std::bad_alloc. `listener` (when given) is told about each state as it is
/// read, and told when the reader gives up. `release_read_text`: the text is a mapped file
/// whose pages the reader gives back as it passes them (the walk never looks back), so
/// that the text and the states read from it are not both held whole.
FastReadStatus read_nvbench_fast(std::string_view text, std::size_t capacity,
                                 const std::filesystem::path& path, ResultFile& file,
                                 StateListener* listener = nullptr, bool release_read_text = false);

/// The padding simdjson needs after the text (SIMDJSON_PADDING).
std::size_t fast_reader_padding();

}  // namespace perfgate::ingest
