// Fuzz target: the history archive's own files, as publish, plan and export read them: an
// attempt (attempts/<id>.json), the ledger (plan.json in the archive) and a plan file.
// An attempt is read by both readers: whatever the fast one reads, the strict one must
// read the same way, or the input is a finding.
#include <cstdlib>
#include <optional>
#include <string>

#include "history/attempt_fast_reader.hpp"
#include "history/commit_plan.hpp"
#include "history/history_attempt.hpp"
#include "history/ledger.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<perfgate::history::HistoryAttempt> fast;
  perfgate::fuzz::expect_user_errors_only(
      [&] { fast = perfgate::history::read_valid_attempt_fast(text); });
  std::optional<perfgate::history::HistoryAttempt> strict;
  perfgate::fuzz::expect_user_errors_only(
      [&] { strict = perfgate::history::read_attempt_strict(text, "attempts/x.json"); });
  if (fast && !(strict && *fast == *strict)) std::abort();  // the readers disagree
  perfgate::fuzz::expect_user_errors_only(
      [&] { perfgate::history::read_ledger(text, "plan.json"); });
  perfgate::fuzz::expect_user_errors_only(
      [&] { perfgate::history::read_plan_file(text, "plan.json"); });
  return 0;
}
