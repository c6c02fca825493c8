// Fuzz target: any result file, its format detected from the content, through read_result_file.
#include "support/result_file_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  perfgate::fuzz::read_result_input(data, size, std::nullopt);
  return 0;
}
