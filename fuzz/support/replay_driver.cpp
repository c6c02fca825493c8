// The fuzz smoke run of `make test` without libFuzzer (docs/fuzzing.md): every fuzz target's
// entry point, compiled into the sanitized GCC test build, driven by this main(). It replays
// the target's corpus, then a fixed number of inputs mutated from it with a fixed seed (the
// same kinds of mutation libFuzzer makes: bytes flipped, inserted, erased, duplicated,
// dictionary tokens, crossovers), under the limits run_fuzzer.sh gives libFuzzer. A crash,
// a sanitizer report, a leak, an input slower than its time limit or a resident set over
// its limit fails the run; the input is written to <work>/findings/ first.
//
// The smoke run needed a second build of the library with clang only for libFuzzer's
// engine; `make fuzz` still uses that engine, with coverage guidance, for long runs.
//
//   perfgate_fuzz_replay TARGET CORPUS_DIR DICT_FILE WORK_DIR RUNS SEED
#include <sanitizer/common_interface_defs.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_entry_points.hpp"  // generated: one PERFGATE_FUZZ_TARGET(name) a target

// Each target's LLVMFuzzerTestOneInput, renamed perfgate_fuzz_<target> by fuzz/CMakeLists.txt.
#define PERFGATE_FUZZ_TARGET(name) \
  extern "C" int perfgate_fuzz_##name(const std::uint8_t* data, std::size_t size);
PERFGATE_FUZZ_TARGETS
#undef PERFGATE_FUZZ_TARGET

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using EntryPoint = int (*)(const std::uint8_t*, std::size_t);

// libFuzzer's limits in run_fuzzer.sh: -timeout=10, -rss_limit_mb=2048. The allocation limit
// (-malloc_limit_mb=1024) is ASan's max_allocation_size_mb, set by the test.
constexpr unsigned kSecondsPerInput = 10;
constexpr long kResidentLimitKiB = 2048L * 1024;
// Inputs are a few kilobytes; a mutation never grows one past this.
constexpr std::size_t kMaxInputSize = 64 * 1024;

struct Target {
  const char* name;
  EntryPoint entry;
};

#define PERFGATE_FUZZ_TARGET(name) {#name, &perfgate_fuzz_##name},
constexpr Target kTargets[] = {PERFGATE_FUZZ_TARGETS};
#undef PERFGATE_FUZZ_TARGET

// What the death callback and the alarm handler write out: set before each input runs.
const Bytes* g_current = nullptr;
std::string g_findings;  // the findings folder, with a trailing slash
std::string g_label;     // which input: "corpus/<file>" or "mutation <n>"

void write_finding(const char* kind) {
  if (g_current == nullptr) return;
  const std::string path = g_findings + kind + "-input";
  if (FILE* out = std::fopen(path.c_str(), "wb")) {
    std::fwrite(g_current->data(), 1, g_current->size(), out);
    std::fclose(out);
  }
  std::fprintf(stderr, "fuzz replay: %s on %s; the input is in %s\n", kind, g_label.c_str(),
               path.c_str());
}

void on_sanitizer_death() {
  write_finding("crash");
}

void on_alarm(int) {
  // Not async-signal-safe, as libFuzzer's own timeout report is not: the process ends here.
  write_finding("timeout");
  std::_Exit(1);
}

Bytes read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The tokens of a libFuzzer dictionary: `"text"` per line, with \\, \" and \xNN escapes;
/// blank lines and # comments skipped.
std::vector<Bytes> read_dictionary(const fs::path& path) {
  std::vector<Bytes> tokens;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto open = line.find('"');
    const auto close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    Bytes token;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (line[i] != '\\' || i + 1 >= close) {
        token.push_back(static_cast<std::uint8_t>(line[i]));
      } else if (line[i + 1] == 'x' && i + 3 < close && hex_digit(line[i + 2]) >= 0 &&
                 hex_digit(line[i + 3]) >= 0) {
        token.push_back(
            static_cast<std::uint8_t>(hex_digit(line[i + 2]) * 16 + hex_digit(line[i + 3])));
        i += 3;
      } else {
        token.push_back(static_cast<std::uint8_t>(line[++i]));
      }
    }
    if (!token.empty()) tokens.push_back(std::move(token));
  }
  return tokens;
}

/// xorshift64*: the same mutations on every machine for a given seed.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  /// A value in [0, bound); bound > 0.
  std::size_t below(std::size_t bound) { return static_cast<std::size_t>(next() % bound); }

 private:
  std::uint64_t state_;
};

// Numbers that find overflow and precision bugs, written where a digit was.
constexpr std::string_view kInterestingNumbers[] = {
    "0",      "-1", "1e308", "-1e400", "9223372036854775808", "4294967296", "NaN",
    "1e-320", "-0", "65536", "0.5",    "18446744073709551615"};

void mutate_once(Bytes& input, const std::vector<Bytes>& corpus,
                 const std::vector<Bytes>& dictionary, Random& random) {
  const auto position = [&](bool inclusive_end) {
    return random.below(input.size() + (inclusive_end ? 1 : 0));
  };
  switch (random.below(input.empty() ? 1 : 10)) {
    case 0: {  // insert a dictionary token (or random bytes when there is no dictionary)
      const std::size_t at = input.empty() ? 0 : position(true);
      if (!dictionary.empty()) {
        const Bytes& token = dictionary[random.below(dictionary.size())];
        input.insert(input.begin() + static_cast<std::ptrdiff_t>(at), token.begin(), token.end());
      } else {
        input.insert(input.begin() + static_cast<std::ptrdiff_t>(at),
                     static_cast<std::uint8_t>(random.next()));
      }
      break;
    }
    case 1:  // flip one bit
      input[position(false)] ^= static_cast<std::uint8_t>(1U << random.below(8));
      break;
    case 2:  // replace a byte with any value
      input[position(false)] = static_cast<std::uint8_t>(random.next());
      break;
    case 3:  // insert a byte
      input.insert(input.begin() + static_cast<std::ptrdiff_t>(position(true)),
                   static_cast<std::uint8_t>(random.next()));
      break;
    case 4: {  // erase a range
      const std::size_t from = position(false);
      const std::size_t count = 1 + random.below(std::min<std::size_t>(input.size() - from, 64));
      input.erase(input.begin() + static_cast<std::ptrdiff_t>(from),
                  input.begin() + static_cast<std::ptrdiff_t>(from + count));
      break;
    }
    case 5: {  // duplicate a range in place (nesting, repeated keys)
      const std::size_t from = position(false);
      const std::size_t count = 1 + random.below(std::min<std::size_t>(input.size() - from, 256));
      const Bytes copy(input.begin() + static_cast<std::ptrdiff_t>(from),
                       input.begin() + static_cast<std::ptrdiff_t>(from + count));
      input.insert(input.begin() + static_cast<std::ptrdiff_t>(from), copy.begin(), copy.end());
      break;
    }
    case 6: {  // overwrite with a dictionary token
      if (dictionary.empty()) break;
      const Bytes& token = dictionary[random.below(dictionary.size())];
      const std::size_t at = position(false);
      for (std::size_t i = 0; i < token.size() && at + i < input.size(); ++i) {
        input[at + i] = token[i];
      }
      break;
    }
    case 7: {  // crossover: this input's head, another's tail
      const Bytes& other = corpus[random.below(corpus.size())];
      if (other.empty()) break;
      input.resize(position(true));
      const std::size_t from = random.below(other.size());
      input.insert(input.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
      break;
    }
    case 8: {  // a number where a digit was
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < input.size(); ++i) {
        if (input[i] >= '0' && input[i] <= '9') digits.push_back(i);
      }
      if (digits.empty()) break;
      const std::size_t at = digits[random.below(digits.size())];
      const std::string_view number =
          kInterestingNumbers[random.below(std::size(kInterestingNumbers))];
      input.erase(input.begin() + static_cast<std::ptrdiff_t>(at));
      input.insert(input.begin() + static_cast<std::ptrdiff_t>(at), number.begin(), number.end());
      break;
    }
    default:  // truncate
      input.resize(position(false));
      break;
  }
  if (input.size() > kMaxInputSize) input.resize(kMaxInputSize);
}

void run_one(EntryPoint entry, const Bytes& input, std::string label) {
  g_label = std::move(label);
  g_current = &input;
  alarm(kSecondsPerInput);
  entry(input.data(), input.size());
  alarm(0);
  g_current = nullptr;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  if (usage.ru_maxrss > kResidentLimitKiB) {
    g_current = &input;
    write_finding("oversized-rss");
    std::exit(1);
  }
}

int usage_error(const char* message) {
  std::fprintf(stderr,
               "fuzz replay: %s\nusage: perfgate_fuzz_replay TARGET CORPUS_DIR DICT_FILE WORK_DIR "
               "RUNS SEED\n",
               message);
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) return usage_error("six arguments expected");
  const std::string_view name = argv[1];
  const auto target = std::find_if(std::begin(kTargets), std::end(kTargets),
                                   [&](const Target& t) { return name == t.name; });
  if (target == std::end(kTargets)) return usage_error("no such fuzz target");
  const fs::path corpus_dir = argv[2];
  const std::vector<Bytes> dictionary = read_dictionary(argv[3]);
  const fs::path work = argv[4];
  const long runs = std::strtol(argv[5], nullptr, 10);
  const auto seed = static_cast<std::uint64_t>(std::strtoull(argv[6], nullptr, 10));

  std::error_code error;
  fs::remove_all(work, error);
  fs::create_directories(work / "findings", error);
  if (error) return usage_error("cannot create the work folder");
  g_findings = (work / "findings").string() + "/";
  __sanitizer_set_death_callback(on_sanitizer_death);
  std::signal(SIGALRM, on_alarm);

  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus_dir, error)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (error || files.empty()) return usage_error("the corpus folder is missing or empty");
  std::sort(files.begin(), files.end());
  std::vector<Bytes> corpus;
  for (const fs::path& file : files) {
    corpus.push_back(read_bytes(file));
    run_one(target->entry, corpus.back(), "corpus/" + file.filename().string());
  }

  Random random(seed);
  for (long run = 0; run < runs; ++run) {
    Bytes input = corpus[random.below(corpus.size())];
    const std::size_t mutations = 1 + random.below(4);
    for (std::size_t m = 0; m < mutations; ++m) mutate_once(input, corpus, dictionary, random);
    run_one(target->entry, input, "mutation " + std::to_string(run));
  }
  std::printf("fuzz replay: %s: %zu corpus inputs and %ld mutations, no finding\n", target->name,
              corpus.size(), runs);
  return 0;
}
