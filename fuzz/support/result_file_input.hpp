#pragma once
// The result-file targets: one per format (as --format-in forces it) and one that lets
// read_result_file detect the format, as `perfgate diff` and `perfgate import` do.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "ingest/result_file.hpp"

namespace perfgate::fuzz {

/// Reads the input as a result file (gzipped or not), then loads the --jsonbin files its
/// states name, as diff does for bulk comparisons.
void read_result_input(const std::uint8_t* data, std::size_t size,
                       std::optional<ingest::ResultFormat> format);

}  // namespace perfgate::fuzz
