#include "count/counter_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config/program_lookup.hpp"
#include "count/callgrind_output.hpp"
#include "count/count_metrics.hpp"
#include "measure/command_capture.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace fs = std::filesystem;
namespace {

constexpr const char* kCallgrindPrefix = "callgrind.";
constexpr const char* kHardwareCounts = "hardware-counts.json";
constexpr const char* kValgrindLogPrefix = "valgrind.";

/// The first lines valgrind wrote to its log files in `folder`, to quote in a failure.
std::string valgrind_messages(const fs::path& folder) {
  std::string out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().filename().string().rfind(kValgrindLogPrefix, 0) != 0) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int i = 0; i < 5 && std::getline(in, line);) {
      if (line.empty()) continue;
      out += (out.empty() ? "" : " | ") + line;
      ++i;
    }
  }
  return out;
}

class ValgrindCounter : public CounterBackend {
 public:
  ValgrindCounter(fs::path valgrind, std::string version)
      : valgrind_(std::move(valgrind)), version_(std::move(version)) {}

  std::string name() const override { return "valgrind"; }

  Json recipe() const override {
    return {{"backend", "valgrind"},
            {"tool", "callgrind"},
            {"version", version_},
            {"cache", {{"I1", "32768,8,64"}, {"D1", "32768,8,64"}, {"LL", "8388608,16,64"}}}};
  }

  std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                const fs::path& folder) const override {
    std::vector<std::string> wrapped = {
        valgrind_.string(), "--tool=callgrind", "--trace-children=yes", "--cache-sim=yes",
        "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
        // The probe's dumps (one per region boundary) as parts of one file, and no
        // per-line detail in them: perfgate reads each part's summary only.
        "--combine-dumps=yes", "--dump-line=no",
        // %p: one file per process, the forked and exec'd children's too.
        "--callgrind-out-file=" + (folder / kCallgrindPrefix).string() + "%p",
        // Valgrind's own messages apart from the program's output, which a check may read.
        "--log-file=" + (folder / kValgrindLogPrefix).string() + "%p", "-q"};
    wrapped.insert(wrapped.end(), argv.begin(), argv.end());
    return wrapped;
  }

  std::map<std::string, std::string> environment() const override {
    return {{"PERFGATE_COUNT_REGIONS", "1"}};
  }

  CountedRun collect(const fs::path& folder) const override {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().filename().string().rfind(kCallgrindPrefix, 0) == 0)
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      const std::string said = valgrind_messages(folder);
      throw Error(ExitCode::kDataError,
                  fmt::format("{}: valgrind wrote no callgrind file; the program did not run "
                              "under valgrind{}",
                              folder.string(), said.empty() ? "" : " (valgrind: " + said + ")"));
    }
    std::vector<EventCounts> processes;
    std::vector<RegionCounts> regions;
    for (const auto& file : files) {
      const CallgrindProfile profile = read_callgrind_output(file);
      processes.push_back(profile.totals());
      regions.push_back(region_counts(profile));
    }
    return {valgrind_metrics(processes), add_region_counts(regions)};
  }

  double slowdown_allowance() const override { return 100; }

 private:
  fs::path valgrind_;
  std::string version_;
};

class HardwareCounter : public CounterBackend {
 public:
  explicit HardwareCounter(fs::path perfgate) : perfgate_(std::move(perfgate)) {}

  std::string name() const override { return "hardware"; }

  Json recipe() const override {
    return {{"backend", "hardware"},
            {"events", {"instructions", "cycles", "branch_misses"}},
            {"scope", "user"}};
  }

  std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                const fs::path& folder) const override {
    std::vector<std::string> wrapped = {perfgate_.string(), kCountHardwareCommand,
                                        (folder / kHardwareCounts).string(), "--"};
    wrapped.insert(wrapped.end(), argv.begin(), argv.end());
    return wrapped;
  }

  CountedRun collect(const fs::path& folder) const override {
    const fs::path path = folder / kHardwareCounts;
    std::ifstream in(path);
    if (!in) {
      throw Error(ExitCode::kDataError,
                  fmt::format("{}: the hardware-counter wrapper wrote no counts (see its "
                              "message in the run's worker log)",
                              path.string()));
    }
    std::stringstream text;
    text << in.rdbuf();
    std::map<std::string, double> counts;
    Json object;
    try {
      object = Json::parse(text.str());
    } catch (const Json::exception&) {
      object = nullptr;
    }
    for (const PerfEvent& event : hardware_count_events()) {
      const auto it = object.is_object() ? object.find(event.metric) : object.end();
      if (!object.is_object() || it == object.end() || !it->is_number_unsigned()) {
        throw Error(ExitCode::kDataError,
                    fmt::format("{}: no count of {} (the wrapper was cut short?); run the "
                                "benchmark again",
                                path.string(), event.metric));
      }
      counts[event.metric] = static_cast<double>(it->get<std::uint64_t>());
    }
    return {counts, {}};
  }

  // The program runs at full speed; the wrapper adds a fork and a few system calls.
  double slowdown_allowance() const override { return 2; }

 private:
  fs::path perfgate_;
};

}  // namespace

std::unique_ptr<CounterBackend> valgrind_counter(fs::path valgrind, std::string version) {
  return std::make_unique<ValgrindCounter>(std::move(valgrind), std::move(version));
}

std::unique_ptr<CounterBackend> hardware_counter(fs::path perfgate) {
  return std::make_unique<HardwareCounter>(std::move(perfgate));
}

CounterSources machine_counter_sources() {
  CounterSources sources;
  sources.perf = &system_perf_events();
  sources.perf_event_paranoid = read_perf_event_paranoid();
  const char* path = std::getenv("PATH");
  sources.valgrind = find_program("valgrind", path ? path : "/bin:/usr/bin", fs::current_path());
  if (sources.valgrind) {
    if (auto version = version_line({sources.valgrind->string()}, 30)) {
      sources.valgrind_version = std::move(*version);
    } else {
      sources.valgrind.reset();
    }
  }
  std::error_code error;
  sources.perfgate = fs::read_symlink("/proc/self/exe", error);
  return sources;
}

std::unique_ptr<CounterBackend> choose_counter(const std::string& choice,
                                               const CounterSources& sources) {
  std::optional<std::string> no_hardware;
  if (choice != "valgrind") {
    no_hardware = sources.perf == nullptr
                      ? std::optional<std::string>("no perf events on this system")
                      : perf_counters_unavailable(*sources.perf, sources.perf_event_paranoid);
    if (!no_hardware) return hardware_counter(sources.perfgate);
  }
  if (choice != "hardware" && sources.valgrind) {
    return valgrind_counter(*sources.valgrind, sources.valgrind_version);
  }
  const std::string no_valgrind =
      "valgrind is not installed (apt-get install valgrind), or 'valgrind --version' failed";
  if (choice == "hardware") {
    throw Error(ExitCode::kNoInput,
                "run_config.counter = \"hardware\": no hardware counters here: " + *no_hardware +
                    ". Or count with \"valgrind\" (or \"auto\")");
  }
  if (choice == "valgrind") {
    throw Error(ExitCode::kNoInput,
                "run_config.counter = \"valgrind\": " + no_valgrind +
                    ". Or count with hardware counters (\"auto\") where the CPU has them");
  }
  throw Error(ExitCode::kNoInput,
              "counting instructions needs hardware counters or Valgrind, and this machine "
              "has neither: " +
                  *no_hardware + "; and " + no_valgrind +
                  ". Install valgrind, or measure time only (run_config.measure = [\"time\"])");
}

CounterChoices::CounterChoices(std::function<CounterSources()> read_sources)
    : read_sources_(std::move(read_sources)) {}

const CounterBackend& CounterChoices::get(const std::string& choice) {
  if (const auto it = chosen_.find(choice); it != chosen_.end()) return *it->second;
  if (!sources_) sources_ = read_sources_();
  auto backend = choose_counter(choice, *sources_);
  return *chosen_.emplace(choice, std::move(backend)).first->second;
}

}  // namespace perfgate
