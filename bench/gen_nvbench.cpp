// gen_nvbench: writes a synthetic nvbench --json --jsonbin result for `perfgate diff`'s
// benchmark: the current nvbench layout (meta, devices, benchmarks with axes and states,
// every summary value a string), one float32 little-endian sample-time file and one
// sample-frequency file per state, and summaries computed from exactly those samples.
//
//   gen_nvbench OUT.json STATES SAMPLES SEED SLOWDOWN [BULK_EVERY]
//
// BULK_EVERY (default 1): every BULK_EVERY-th state (index % BULK_EVERY == 0) has bulk
// files; the others carry summaries only, as states run without --jsonbin do. 2 gives the
// issue's mixed pair: half the states with bulk samples.
// The state's base time depends on its index only, so two files with different seeds
// describe the same benchmarks measured twice. SLOWDOWN (a fraction, e.g. 0.1) changes a
// chosen share of the states: index % 8 == 1 slower by SLOWDOWN, == 2 faster by SLOWDOWN,
// == 3 slower by SLOWDOWN / 20 (inside the noise: ambiguous at best); the rest keep their
// base. With SLOWDOWN 0 every state keeps its base (a reference file).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

static_assert(std::endian::native == std::endian::little,
              "bulk files are little-endian float32 and are written from memory as they are");

constexpr std::size_t kStatesPerBenchmark = 1000;
constexpr double kClockHz = 1.4e9;
constexpr const char* kDeviceName = "NVIDIA H100 80GB HBM3";

struct Arguments {
  fs::path out;
  std::size_t states = 0;
  std::size_t samples = 0;
  std::uint64_t seed = 0;
  double slowdown = 0;
  std::size_t bulk_every = 1;
};

Arguments parse(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::cerr << "usage: gen_nvbench OUT.json STATES SAMPLES SEED SLOWDOWN [BULK_EVERY]\n"
                 "  e.g. gen_nvbench ref.json 10000 1000 1 0; gen_nvbench cmp.json 10000 1000 2 "
                 "0.1\n";
    std::exit(64);
  }
  Arguments args;
  args.out = argv[1];
  args.states = std::strtoull(argv[2], nullptr, 10);
  args.samples = std::strtoull(argv[3], nullptr, 10);
  args.seed = std::strtoull(argv[4], nullptr, 10);
  args.slowdown = std::strtod(argv[5], nullptr);
  if (argc == 7) args.bulk_every = std::strtoull(argv[6], nullptr, 10);
  if (args.states == 0 || args.samples < 2 || !(args.slowdown >= 0 && args.slowdown < 1) ||
      args.bulk_every == 0) {
    std::cerr << "gen_nvbench: STATES >= 1, SAMPLES >= 2, 0 <= SLOWDOWN < 1 and BULK_EVERY >= 1\n";
    std::exit(64);
  }
  return args;
}

/// The state's time when nothing changed: 5 µs to 5 ms, spread log-uniformly over the
/// states and the same in every file.
double base_time(std::size_t index) {
  std::mt19937_64 rng(0x9e3779b97f4a7c15ULL ^ index);
  return 5e-6 * std::pow(1000.0, std::uniform_real_distribution<double>(0, 1)(rng));
}

double change_of(std::size_t index, double slowdown) {
  switch (index % 8) {
    case 1:
      return 1 + slowdown;
    case 2:
      return 1 - slowdown;
    case 3:
      return 1 + slowdown / 20;
    default:
      return 1;
  }
}

/// R type 7 quantile of sorted values.
double quantile(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

struct StateSummary {
  double min, max, mean, stdev, q1, median, q3, cpu_mean, clock_mean;
};

/// Summaries of the samples exactly as the bulk files hold them (float32).
StateSummary summarize(const std::vector<float>& times, const std::vector<float>& freqs) {
  std::vector<double> sorted(times.begin(), times.end());
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double t : sorted) sum += t;
  const double n = static_cast<double>(sorted.size());
  const double mean = sum / n;
  double squares = 0;
  for (double t : sorted) squares += (t - mean) * (t - mean);
  double clock = 0;
  for (float f : freqs) clock += f;
  return {sorted.front(),
          sorted.back(),
          mean,
          std::sqrt(squares / (n - 1)),
          quantile(sorted, 0.25),
          quantile(sorted, 0.5),
          quantile(sorted, 0.75),
          mean * 1.04,
          clock / n};
}

/// One nvbench summary: {"tag", "name", "hint", "description", "data": [values]}.
std::string summary(const char* tag, const char* name, const char* hint, const char* description,
                    const std::string& data) {
  return fmt::format(
      "            {{\n"
      "              \"tag\": \"{}\",\n"
      "              \"name\": \"{}\",\n"
      "              \"hint\": \"{}\",\n"
      "              \"description\": \"{}\",\n"
      "              \"data\": [\n{}\n              ]\n"
      "            }}",
      tag, name, hint, description, data);
}

std::string value(const char* name, const char* type, const std::string& text) {
  return fmt::format(
      "                {{\n                  \"name\": \"{}\",\n                  \"type\": "
      "\"{}\",\n                  \"value\": \"{}\"\n                }}",
      name, type, text);
}

std::string float_summary(const char* tag, const char* name, const char* hint, double number) {
  return summary(tag, name, hint, name, value("value", "float64", fmt::format("{}", number)));
}

std::string file_summary(const char* tag, const char* name, const char* hint,
                         const std::string& file, std::size_t size) {
  return summary(
      tag, name, hint, name,
      value("filename", "string", file) + ",\n" + value("size", "int64", std::to_string(size)));
}

void write_floats(const fs::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out) {
    std::cerr << "gen_nvbench: cannot write " << path << "\n";
    std::exit(74);
  }
}

std::string state_json(const Arguments& args, std::size_t index, std::size_t elements,
                       std::mt19937_64& rng) {
  const double center = base_time(index) * change_of(index, args.slowdown);
  std::normal_distribution<double> noise(0, 0.02);
  std::normal_distribution<double> clock(0, 0.005);
  std::exponential_distribution<double> tail(40);  // a thin right tail, as real kernels have
  std::vector<float> times(args.samples), freqs(args.samples);
  for (std::size_t i = 0; i < args.samples; ++i) {
    times[i] = static_cast<float>(center * std::exp(noise(rng)) * (1 + tail(rng) * 0.05));
    freqs[i] = static_cast<float>(kClockHz * (1 + clock(rng)));
  }
  const std::string name = args.out.filename().string();
  const std::string times_file = fmt::format("{}-bin/{}.bin", name, index);
  const std::string freqs_file = fmt::format("{}-freqs-bin/{}.bin", name, index);
  const bool bulk = index % args.bulk_every == 0;
  if (bulk) {
    write_floats(args.out.parent_path() / times_file, times);
    write_floats(args.out.parent_path() / freqs_file, freqs);
  }

  const StateSummary s = summarize(times, freqs);
  std::vector<std::string> summaries = {
      summary("nv/cold/sample_size", "Samples", "sample_size", "Number of isolated samples",
              value("value", "int64", std::to_string(args.samples))),
      float_summary("nv/cold/time/cpu/mean", "CPU Time", "duration", s.cpu_mean),
      float_summary("nv/cold/time/gpu/min", "Min GPU Time", "duration", s.min),
      float_summary("nv/cold/time/gpu/max", "Max GPU Time", "duration", s.max),
      float_summary("nv/cold/time/gpu/mean", "GPU Time", "duration", s.mean),
      float_summary("nv/cold/time/gpu/stdev/absolute", "Stdev GPU Time", "duration", s.stdev),
      float_summary("nv/cold/time/gpu/stdev/relative", "Noise", "percentage", s.stdev / s.mean),
      float_summary("nv/cold/time/gpu/q1", "Q1 GPU Time", "duration", s.q1),
      float_summary("nv/cold/time/gpu/median", "Median GPU Time", "duration", s.median),
      float_summary("nv/cold/time/gpu/q3", "Q3 GPU Time", "duration", s.q3),
      float_summary("nv/cold/time/gpu/iqr/absolute", "IQR GPU Time", "duration", s.q3 - s.q1),
      float_summary("nv/cold/time/gpu/iqr/relative", "IQR Noise", "percentage",
                    (s.q3 - s.q1) / s.median),
      float_summary("nv/cold/sm_clock_rate/mean", "Clock Rate", "frequency", s.clock_mean),
  };
  if (bulk) {
    summaries.push_back(file_summary("nv/json/bin:nv/cold/sample_times", "Samples Times File",
                                     "file/sample_times", times_file, args.samples));
    summaries.push_back(file_summary("nv/json/freqs-bin:nv/cold/sample_freqs",
                                     "Samples Frequencies File", "file/sample_freqs", freqs_file,
                                     args.samples));
  }
  std::string joined;
  for (const auto& part : summaries) joined += (joined.empty() ? "" : ",\n") + part;
  return fmt::format(
      "        {{\n"
      "          \"name\": \"Device=0 T=F32 Elements={0}\",\n"
      "          \"min_samples\": 10,\n          \"min_time\": 0.5,\n"
      "          \"max_noise\": 0.005,\n          \"skip_time\": -1.0,\n"
      "          \"timeout\": 15.0,\n          \"device\": 0,\n"
      "          \"type_config_index\": 0,\n"
      "          \"axis_values\": [\n"
      "            {{\n              \"name\": \"T\",\n              \"type\": \"string\",\n"
      "              \"value\": \"F32\"\n            }},\n"
      "            {{\n              \"name\": \"Elements\",\n              \"type\": \"int64\",\n"
      "              \"value\": \"{0}\"\n            }}\n"
      "          ],\n"
      "          \"summaries\": [\n{1}\n          ],\n"
      "          \"is_skipped\": false\n"
      "        }}",
      elements, joined);
}

std::string benchmark_json(const Arguments& args, std::size_t benchmark, std::size_t first,
                           std::size_t count, std::mt19937_64& rng) {
  std::string axis_values, states;
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t elements = 1024 * (j + 1);
    axis_values += fmt::format(
        "{}            {{\n              \"input_string\": \"{}\",\n"
        "              \"description\": \"\",\n              \"value\": {}\n            }}",
        j == 0 ? "" : ",\n", elements, elements);
    states += (j == 0 ? "" : ",\n") + state_json(args, first + j, elements, rng);
  }
  return fmt::format(
      "    {{\n"
      "      \"name\": \"copy_{0}\",\n      \"index\": {0},\n"
      "      \"min_samples\": 10,\n      \"min_time\": 0.5,\n      \"max_noise\": 0.005,\n"
      "      \"skip_time\": -1.0,\n      \"timeout\": 15.0,\n"
      "      \"devices\": [\n        0\n      ],\n"
      "      \"axes\": [\n"
      "        {{\n          \"name\": \"T\",\n          \"type\": \"type\",\n"
      "          \"flags\": \"\",\n          \"values\": [\n"
      "            {{\n              \"input_string\": \"F32\",\n"
      "              \"description\": \"float\",\n              \"is_active\": true\n"
      "            }}\n          ]\n        }},\n"
      "        {{\n          \"name\": \"Elements\",\n          \"type\": \"int64\",\n"
      "          \"flags\": \"\",\n          \"values\": [\n{1}\n          ]\n        }}\n"
      "      ],\n"
      "      \"states\": [\n{2}\n      ]\n"
      "    }}",
      benchmark, axis_values, states);
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);
  const std::string name = args.out.filename().string();
  fs::create_directories(args.out.parent_path() / (name + "-bin"));
  fs::create_directories(args.out.parent_path() / (name + "-freqs-bin"));

  std::mt19937_64 rng(args.seed);
  std::string benchmarks;
  for (std::size_t first = 0, b = 0; first < args.states; first += kStatesPerBenchmark, ++b) {
    const std::size_t count = std::min(kStatesPerBenchmark, args.states - first);
    benchmarks += (b == 0 ? "" : ",\n") + benchmark_json(args, b, first, count, rng);
  }
  const std::string document = fmt::format(
      "{{\n"
      "  \"meta\": {{\n"
      "    \"argv\": [\n      \"./bench_copy\",\n      \"--json\",\n      \"{0}\",\n"
      "      \"--jsonbin\"\n    ],\n"
      "    \"version\": {{\n"
      "      \"json\": {{\n        \"major\": 1,\n        \"minor\": 0,\n"
      "        \"patch\": 0,\n        \"string\": \"1.0.0\"\n      }},\n"
      "      \"nvbench\": {{\n        \"major\": 0,\n        \"minor\": 1,\n"
      "        \"patch\": 0,\n        \"string\": \"0.1.0\",\n"
      "        \"git_branch\": \"main\",\n        \"git_sha\": \"0000000\",\n"
      "        \"git_version\": \"0.1.0\",\n        \"git_is_dirty\": false\n      }}\n"
      "    }}\n"
      "  }},\n"
      "  \"devices\": [\n"
      "    {{\n      \"id\": 0,\n      \"name\": \"{1}\",\n      \"sm_version\": 900,\n"
      "      \"ptx_version\": 900,\n      \"sm_default_clock_rate\": {2},\n"
      "      \"number_of_sms\": 132,\n      \"max_blocks_per_sm\": 32,\n"
      "      \"max_threads_per_sm\": 2048,\n      \"max_threads_per_block\": 1024,\n"
      "      \"registers_per_sm\": 65536,\n      \"registers_per_block\": 65536,\n"
      "      \"global_memory_size\": 84987740160,\n"
      "      \"global_memory_bus_peak_clock_rate\": 2619000000,\n"
      "      \"global_memory_bus_width\": 5120,\n"
      "      \"global_memory_bus_bandwidth\": 3352320000000,\n"
      "      \"l2_cache_size\": 52428800,\n      \"shared_memory_per_sm\": 233472,\n"
      "      \"shared_memory_per_block\": 49152,\n      \"ecc_state\": true\n    }}\n"
      "  ],\n"
      "  \"benchmarks\": [\n{3}\n  ]\n"
      "}}\n",
      name, kDeviceName, static_cast<long long>(kClockHz * 1.3), benchmarks);
  std::ofstream out(args.out, std::ios::binary);
  out << document;
  if (!out) {
    std::cerr << "gen_nvbench: cannot write " << args.out << "\n";
    return 74;
  }
  return 0;
}
