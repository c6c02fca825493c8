// A deterministic program for the instruction-count checks (count_verdicts.sh, issue 36):
// R rounds of filling 4,000 integers from a fixed seed and sorting them, about 30 ms at
// R = 100 on an idle machine; R = 101 is 1% more work. `@FILE` reads R from a file, so that
// the benchmark's command, and so its recipe, stays the same while the work changes, as
// between two commits.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
  long rounds = 100;
  if (argc > 1 && argv[1][0] == '@') {
    std::ifstream(argv[1] + 1) >> rounds;
  } else if (argc > 1) {
    rounds = std::atol(argv[1]);
  }
  constexpr std::size_t kSize = 4000;
  std::vector<std::uint32_t> data(kSize);
  std::uint64_t state = 88172645463325252ULL;
  std::uint64_t checksum = 0;
  for (long round = 0; round < rounds; ++round) {
    for (auto& value : data) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      value = static_cast<std::uint32_t>(state >> 33);
    }
    std::sort(data.begin(), data.end());
    checksum += data[kSize / 2];
  }
  return checksum == 42 ? 1 : 0;  // uses the result, so the sorts are not optimised away
}
