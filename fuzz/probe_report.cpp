// Fuzz target: a perfgate-probe report (PERFGATE_PROBE_OUT), through load_probe_report.
#include "profile/probe_report_reader.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = perfgate::fuzz::write_input("probe.json", data, size);
  perfgate::fuzz::expect_user_errors_only([&] { perfgate::profile::load_probe_report(path); });
  return 0;
}
