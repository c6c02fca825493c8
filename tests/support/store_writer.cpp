// A store writer for the crash-safety and concurrency tests: opens a store and appends
// attempts of 20 records each, printing "ready" once the first one is stored, so a test
// that kills it after "ready" knows that attempt must survive and hits later appends.
//   perfgate_store_writer URL ATTEMPTS   (ATTEMPTS 0 = until killed)
// Every record is unique (pid, a random nonce and a counter in its benchmark_id), so a
// writer restarted on the same store never collides with what an earlier one stored.
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>

#include "model/attempt.hpp"
#include "model/error.hpp"
#include "store/store.hpp"

namespace {

constexpr int kRecordsPerAttempt = 20;

perfgate::Attempt make_attempt(const std::string& writer, long long serial) {
  perfgate::Attempt attempt;
  attempt.created_at = "2026-01-01T00:00:00Z";
  attempt.commit_sha = writer;
  attempt.run_source = "scheduled_main";
  for (int i = 0; i < kRecordsPerAttempt; ++i) {
    perfgate::NormalizedRecord r;
    r.benchmark_id = writer + "-" + std::to_string(serial) + "-" + std::to_string(i);
    r.workload_id = "crash";
    r.variant_id = "writer";
    r.benchmark_version = 1;
    r.recipe_fingerprint = "recipe";
    r.hardware_profile_id = "hw";
    r.software_profile_id = "sw";
    r.timestamp = "2026-01-01T00:00:00Z";
    r.device = "cpu";
    r.run_source = "scheduled_main";
    r.baseline_eligible = true;
    r.metrics["latency"] = {static_cast<double>(serial) + i / 100.0, "s",
                            perfgate::Direction::kLowerIsBetter};
    attempt.records.push_back(r);
  }
  perfgate::assign_attempt_id(attempt);
  return attempt;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s URL ATTEMPTS\n", argv[0]);
    return 64;
  }
  try {
    const long long attempts = std::stoll(argv[2]);
    const std::string writer =
        std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}());
    auto store = perfgate::open_store(argv[1]);
    for (long long serial = 0; attempts == 0 || serial < attempts; ++serial) {
      store->append(make_attempt(writer, serial));
      if (serial == 0) {
        std::fputs("ready\n", stdout);
        std::fflush(stdout);
      }
    }
  } catch (const perfgate::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return static_cast<int>(e.code());
  }
  return 0;
}
