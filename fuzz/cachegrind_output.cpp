// Fuzz target: cachegrind's output file, as `run` reads it after each counted run
// (count/cachegrind_output.hpp), through the file reader.
#include "count/cachegrind_output.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("cachegrind.out", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::read_cachegrind_output(path); });
  return 0;
}
