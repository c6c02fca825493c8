// Fuzz target: a JSON scenarios file of `perfgate ab`, through load_scenario_file.
#include "ab/scenario_file.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("scenarios.json", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::load_scenario_file(path); });
  return 0;
}
