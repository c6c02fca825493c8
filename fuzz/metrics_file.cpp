// Fuzz target: the metrics file a measured program appends to ($PERFGATE_METRICS_OUT),
// through read_metrics_file, as `run` reads it after each run.
#include "measure/metrics_file.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("metrics.jsonl", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::read_metrics_file(path); });
  return 0;
}
