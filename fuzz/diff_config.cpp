// Fuzz target: a `perfgate diff --config` file, through parse_diff_config, then resolved
// over the presets as diff resolves it.
#include <string>

#include "diff/diff_config.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  perfgate::fuzz::expect_user_errors_only([&] {
    const auto file = perfgate::diff::parse_diff_config("diff.toml", text);
    perfgate::diff::resolve_diff_config(std::nullopt, file);
  });
  return 0;
}
