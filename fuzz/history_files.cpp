// Fuzz target: the history archive's own files, as publish, plan and export read them: an
// attempt (attempts/<id>.json), the ledger (plan.json in the archive) and a plan file.
#include <string>

#include "history/commit_plan.hpp"
#include "history/history_attempt.hpp"
#include "history/ledger.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  perfgate::fuzz::expect_user_errors_only(
      [&] { perfgate::history::read_attempt(text, "attempts/x.json"); });
  perfgate::fuzz::expect_user_errors_only(
      [&] { perfgate::history::read_ledger(text, "plan.json"); });
  perfgate::fuzz::expect_user_errors_only(
      [&] { perfgate::history::read_plan_file(text, "plan.json"); });
  return 0;
}
