// CPU-bound example: counts the primes below N with a sieve of Eratosthenes, R times.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const long limit = argc > 1 ? std::atol(argv[1]) : 1000000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
  long count = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<bool> composite(static_cast<std::size_t>(limit), false);
    count = 0;
    for (long i = 2; i < limit; ++i) {
      if (composite[static_cast<std::size_t>(i)]) continue;
      ++count;
      for (long j = i * i; j < limit; j += i) composite[static_cast<std::size_t>(j)] = true;
    }
  }
  std::printf("%ld primes below %ld\n", count, limit);
  return 0;
}
