// Fuzz target: a JSON mapping file of `perfgate import --mapping`, through
// read_import_mapping, then matched as import matches it.
#include "ingest/import_mapping.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("mapping.json", data, size);
  perfgate::fuzz::expect_user_errors_only([&] {
    const auto mapping = perfgate::ingest::read_import_mapping(path);
    perfgate::ingest::find_mapping_entry(mapping, "bench/n=10");
  });
  return 0;
}
