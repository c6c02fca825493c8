// Fuzz target: perfgate.toml, the project config, through load_project_config.
#include "config/project_config.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("perfgate.toml", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::load_project_config(path); });
  return 0;
}
