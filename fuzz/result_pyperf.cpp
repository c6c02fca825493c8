// Fuzz target: pyperf JSON, plain or gzipped (--format-in pyperf), through read_result_file.
#include "support/result_file_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::read_result_input(data, size, perfgate::ingest::ResultFormat::kPyperf);
  return 0;
}
