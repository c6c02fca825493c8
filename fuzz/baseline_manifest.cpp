// Fuzz target: a baseline manifest (`perfgate baseline approve`), through
// load_baseline_manifest.
#include "gate/baseline_manifest.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("manifest.json", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::load_baseline_manifest(path); });
  return 0;
}
