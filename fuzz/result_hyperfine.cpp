// Fuzz target: hyperfine --export-json output (--format-in hyperfine), through read_result_file.
#include "support/result_file_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::read_result_input(data, size, perfgate::ingest::ResultFormat::kHyperfine);
  return 0;
}
