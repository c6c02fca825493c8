#pragma once
// What every fuzz target shares (docs/fuzzing.md): the input as a file where the parser's
// entry point takes a path, and the rule that decides what counts as a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace perfgate::fuzz {

/// Writes the input to `name` in a folder of this process's own (removed at exit) and
/// returns its path, so that parsers are fuzzed through the same entry points the
/// commands call. The folder also holds "bulk.bin", four float32 values, for the nvbench
/// inputs that name it as a --jsonbin file.
std::filesystem::path write_input(std::string_view name, const std::uint8_t* data,
                                  std::size_t size);

/// Rejecting hostile input with a perfgate::Error the user can act on (bad data, a missing
/// or unreadable file) is the expected outcome. Anything else reaching the caller, another
/// exception or an internal error (exit 70), would end the command with a message that
/// does not name the field: it aborts, so libFuzzer records the input as a finding.
/// With PERFGATE_FUZZ_SHOW_ERRORS set, each rejection's message is printed to stderr.
void report_unexpected_exception();

template <class Parse>
void expect_user_errors_only(Parse&& parse) {
  try {
    parse();
  } catch (...) {
    report_unexpected_exception();
  }
}

}  // namespace perfgate::fuzz
