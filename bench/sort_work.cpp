// A deterministic program for the instruction-count checks (count_verdicts.sh, issue 36):
// R rounds of sorting the same 20,000 pseudo-random integers (fixed seed), about 30 ms
// at R = 20 on an idle machine. R = 20.2 would be 1% more sorting; R is read as hundredths
// of a round from `@FILE` (2000 = 20 rounds, 2020 = 1% more), so that the benchmark's
// command, and so its recipe, stays the same while the work changes, as between commits.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
  long hundredths = 2000;
  if (argc > 1 && argv[1][0] == '@') {
    std::ifstream(argv[1] + 1) >> hundredths;
  } else if (argc > 1) {
    hundredths = std::atol(argv[1]);
  }
  constexpr std::size_t kSize = 20000;
  std::vector<std::uint32_t> data(kSize);
  std::uint64_t state = 88172645463325252ULL;
  const auto fill = [&](std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      data[i] = static_cast<std::uint32_t>(state >> 33);
    }
  };
  std::uint64_t checksum = 0;
  // Whole rounds, then the fraction of a round as a sort of that fraction of the array.
  for (long round = 0; round < hundredths / 100; ++round) {
    fill(kSize);
    std::sort(data.begin(), data.end());
    checksum += data[kSize / 2];
  }
  const std::size_t part = kSize * static_cast<std::size_t>(hundredths % 100) / 100;
  if (part > 0) {
    fill(part);
    std::sort(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(part));
    checksum += data[part / 2];
  }
  return checksum == 42 ? 1 : 0;  // uses the result, so the sorts are not optimised away
}
