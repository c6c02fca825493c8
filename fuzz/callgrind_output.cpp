// Fuzz target: callgrind's output file, as `run` reads it after each counted run
// (count/callgrind_output.hpp), through the file reader, and the probe's region marks in
// its dumps' triggers (count/region_counts.hpp).
#include "count/callgrind_output.hpp"
#include "count/region_counts.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("callgrind.out", data, size);
  perfgate::fuzz::expect_user_errors_only([&] {
    const perfgate::CallgrindProfile profile = perfgate::read_callgrind_output(path);
    perfgate::region_counts(profile);
  });
  return 0;
}
