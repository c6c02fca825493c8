#pragma once
// Work on many independent items on every core (at most 8): each thread takes the next
// index until none is left, so uneven items balance themselves. For the exports and
// readers whose items (files, series) are independent and numerous.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace perfgate {

/// Calls `work(i)` once for each i in [0, count), on up to 8 threads, the caller's among
/// them, and returns when all are done. The first exception `work` throws is rethrown
/// then; the other items still run.
template <class Work>
void parallel_for(std::size_t count, const Work& work) {
  std::atomic<std::size_t> next{0};
  std::mutex failure_lock;
  std::exception_ptr failure;
  const auto drain = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers && t < count; ++t) threads.emplace_back(drain);
  drain();
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

/// Calls `work(block, begin, end)` for each block of `block_size` consecutive items of
/// [0, count), through parallel_for: a single block runs on the caller alone.
template <class Work>
void parallel_for_blocks(std::size_t count, std::size_t block_size, const Work& work) {
  parallel_for((count + block_size - 1) / block_size, [&](std::size_t block) {
    work(block, block * block_size, std::min(count, (block + 1) * block_size));
  });
}

}  // namespace perfgate
