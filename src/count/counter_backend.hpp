#pragma once
// How a counted run is made: the measured command wrapped by Valgrind's callgrind, or by
// perfgate's own hardware-counter wrapper (perf_event_open). A counted run is a run of its
// own, after the timed runs: latency is never measured under Valgrind. The backend is
// chosen per machine and written into the record's recipe, so that counts of different
// backends (or cache geometries, or Valgrind versions) never share a cohort.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "count/perf_events.hpp"
#include "count/region_counts.hpp"
#include "model/json.hpp"

namespace perfgate {

/// What one counted run left: metric -> count of the whole run (every process), and the
/// probe regions' counts where the backend can attribute them (Valgrind).
struct CountedRun {
  std::map<std::string, double> counts;
  RegionCounts regions;
};

class CounterBackend {
 public:
  virtual ~CounterBackend() = default;
  /// "valgrind" or "hardware".
  virtual std::string name() const = 0;
  /// The recipe's `measure.counter`: the backend and whatever changes its counts.
  virtual Json recipe() const = 0;
  /// The argv of a counted run of `argv`, leaving its counts in `folder` (empty, ours).
  virtual std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                        const std::filesystem::path& folder) const = 0;
  /// Environment variables the counted run gets beside the run's own.
  virtual std::map<std::string, std::string> environment() const { return {}; }
  /// The counts of the run that left its files in `folder`. Throws Error(kDataError)
  /// naming the file when they are missing or malformed.
  virtual CountedRun collect(const std::filesystem::path& folder) const = 0;
  /// How many times longer than a timed run a counted run may take (its time limit is
  /// the run's times this).
  virtual double slowdown_allowance() const = 0;
};

/// callgrind with cache simulation, --trace-children=yes and one file per process (its own
/// messages to valgrind.<pid> files beside the counts, apart from the program's output),
/// the caches pinned to one geometry (I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte
/// lines) so that the misses do not depend on the machine's caches. The run gets
/// PERFGATE_COUNT_REGIONS=1, so that perfgate-probe marks its regions' boundaries with
/// dumps (count/region_counts.hpp). `version` is `valgrind --version`'s line.
std::unique_ptr<CounterBackend> valgrind_counter(std::filesystem::path valgrind,
                                                 std::string version);

/// perfgate's __count-hardware wrapper (count/perf_events.hpp), `perfgate` being this
/// program's own file.
std::unique_ptr<CounterBackend> hardware_counter(std::filesystem::path perfgate);

/// Where the backends come from: the machine, or fixed answers in tests.
struct CounterSources {
  PerfEventApi* perf = nullptr;
  std::optional<int> perf_event_paranoid;
  /// The valgrind program on PATH, and its `--version` line; nullopt when not installed.
  std::optional<std::filesystem::path> valgrind;
  std::string valgrind_version;
  std::filesystem::path perfgate;  ///< this program, for the hardware wrapper
};

/// This machine's: the kernel's perf events, valgrind from PATH, /proc/self/exe.
CounterSources machine_counter_sources();

/// The backend `choice` names: "hardware", "valgrind", or "auto" (hardware counters where
/// the kernel gives them, else Valgrind). Throws Error(kNoInput) with the reason each
/// backend is not usable, and what to install or allow.
std::unique_ptr<CounterBackend> choose_counter(const std::string& choice,
                                               const CounterSources& sources);

}  // namespace perfgate

namespace perfgate {

/// The backends of one measuring invocation: each choice ("auto", "hardware", "valgrind")
/// is made once, when a state first asks for it, from sources read once (valgrind
/// --version is a process start).
class CounterChoices {
 public:
  explicit CounterChoices(std::function<CounterSources()> read_sources);
  /// The backend for `choice`; throws choose_counter's Error, every time it is asked.
  const CounterBackend& get(const std::string& choice);

 private:
  std::function<CounterSources()> read_sources_;
  std::optional<CounterSources> sources_;
  std::map<std::string, std::unique_ptr<CounterBackend>> chosen_;
};

}  // namespace perfgate
