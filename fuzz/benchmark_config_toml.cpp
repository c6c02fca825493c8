// Fuzz target: a TOML benchmark config, through load_benchmark_config (the
// loader `perfgate run` uses for every config of a suite).
#include "config/suite_loader.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("bench.toml", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::load_benchmark_config(path); });
  return 0;
}
