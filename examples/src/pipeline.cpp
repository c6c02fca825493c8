// Example that reports its own stage timings: each stage's time is appended as a JSON line
// to the file perfgate names in PERFGATE_METRICS_OUT, and becomes a component metric.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

void report(const char* stage, double seconds) {
  const char* path = std::getenv("PERFGATE_METRICS_OUT");
  if (path == nullptr) return;  // run outside perfgate: nothing to report to
  if (std::FILE* out = std::fopen(path, "a")) {
    std::fprintf(out, "{\"name\": \"%s\", \"value\": %.9f, \"unit\": \"s\"}\n", stage, seconds);
    std::fclose(out);
  }
}

template <typename Stage>
auto timed(const char* name, Stage stage) {
  const auto start = std::chrono::steady_clock::now();
  auto result = stage();
  report(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t records = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  auto lines = timed("parse", [&] {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < records; ++i)
      out.push_back(std::to_string(i * 2654435761u % 1000003));
    return out;
  });
  auto values = timed("transform", [&] {
    std::vector<long> out;
    for (const auto& line : lines) out.push_back(std::stol(line));
    std::sort(out.begin(), out.end());
    return out;
  });
  const long total =
      timed("aggregate", [&] { return std::accumulate(values.begin(), values.end(), 0L); });
  std::printf("%zu records, sum %ld\n", records, total);
  return 0;
}
