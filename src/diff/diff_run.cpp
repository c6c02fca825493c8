#include "diff/diff_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <optional>
#include <span>
#include <thread>
#include <utility>

#include "diff/early_decisions.hpp"
#include "ingest/timing_summary.hpp"
#include "model/error.hpp"
#include "model/metric.hpp"
#include "stats/mann_whitney.hpp"

namespace perfgate::diff {
namespace {

using ingest::ResultState;

/// Samples of one state: those held in the file, or its bulk files read on first use.
/// Lives only while its pair is decided, so at most two states' samples are in memory.
class StateSamples final : public LazySamples {
 public:
  StateSamples(const ResultState& state, std::vector<std::string>& warnings)
      : state_(state), warnings_(warnings) {}

  std::optional<std::span<const double>> times() override {
    if (!state_.samples.empty()) return std::span<const double>(state_.samples);
    return load(state_.bulk_times, times_);
  }

  std::optional<std::span<const double>> frequencies() override {
    if (!state_.samples.empty()) return std::nullopt;  // in-file samples carry no clock
    return load(state_.bulk_frequencies, frequencies_);
  }

 private:
  std::optional<std::span<const double>> load(const std::optional<ingest::BulkFile>& file,
                                              std::optional<std::vector<double>>& cache) {
    if (!file) return std::nullopt;
    if (!cache) {
      std::string warning;
      cache = ingest::load_bulk_file(*file, warning);
      if (!cache) {
        warnings_.push_back(warning + "; " + state_.benchmark + " " + state_.state_key +
                            " falls back to its summaries");
        cache = std::vector<double>{};
        failed_ = true;
      }
    }
    if (failed_) return std::nullopt;
    return std::span<const double>(*cache);
  }

  const ResultState& state_;
  std::vector<std::string>& warnings_;
  std::optional<std::vector<double>> times_;
  std::optional<std::vector<double>> frequencies_;
  bool failed_ = false;
};

/// Samples held in memory already (a state's CPU times): no bulk files, no clock.
class HeldSamples final : public LazySamples {
 public:
  explicit HeldSamples(std::span<const double> samples) : samples_(samples) {}
  std::optional<std::span<const double>> times() override { return samples_; }
  std::optional<std::span<const double>> frequencies() override { return std::nullopt; }

 private:
  std::span<const double> samples_;
};

/// A state's instruction counts: a perfgate record's counted runs (one sample each).
/// nullptr without any.
const std::vector<double>* instruction_samples(const ResultState& state) {
  for (const auto& metric : state.extra_metrics) {
    if (metric.name == count_metric_names::kInstructions && !metric.samples.empty())
      return &metric.samples;
  }
  return nullptr;
}

/// A state's CPU time per repetition: Google Benchmark's cpu_time of each iteration row.
/// nullptr for states without in-file samples (nvbench's single CPU mean, aggregate-only
/// Google Benchmark files) and for a CPU time that is not one per sample (hyperfine's mean
/// user + system beside its runs' times): one value shows no spread and would only add
/// AMBG rows.
const std::vector<double>* cpu_samples(const ResultState& state) {
  if (state.samples.empty()) return nullptr;
  for (const auto& metric : state.extra_metrics) {
    if (metric.name == "cpu_time" && metric.samples.size() == state.samples.size())
      return &metric.samples;
  }
  return nullptr;
}

/// The U test of two in-file samples, when the format has no clock and each side has two.
std::optional<StateComparison::UTest> u_test(std::span<const double> reference,
                                             std::span<const double> compare, bool has_clock) {
  if (has_clock || reference.size() < 2 || compare.size() < 2) return std::nullopt;
  const stats::MannWhitneyResult result = stats::mann_whitney_u(reference, compare);
  return StateComparison::UTest{result.p_value, result.u, result.exact, reference.size(),
                                compare.size()};
}

/// A metric beside the timing, held in memory (`samples_of` finds it in a state), decided
/// as the timing is but without a clock; nullopt when a side is missing, skipped or has
/// none. The U test only where the format has no clock, as for the timing.
template <class SamplesOf>
std::optional<StateComparison> decide_beside(const MatchedState& match, bool has_clock,
                                             const DiffThresholds& thresholds,
                                             SamplesOf samples_of) {
  if (!match.reference || !match.compare || match.reference->skipped || match.compare->skipped) {
    return std::nullopt;
  }
  const std::vector<double>* reference = samples_of(*match.reference);
  const std::vector<double>* compare = samples_of(*match.compare);
  if (reference == nullptr || compare == nullptr) return std::nullopt;
  HeldSamples ref_samples(*reference);
  HeldSamples cmp_samples(*compare);
  StateComparison comparison =
      compare_states(ingest::summarize_timing(*reference), ingest::summarize_timing(*compare),
                     &ref_samples, &cmp_samples, false, thresholds);
  comparison.u_test = u_test(*reference, *compare, has_clock);
  return comparison;
}

std::optional<StateComparison> decide_cpu(const MatchedState& match, bool has_clock,
                                          const DiffThresholds& thresholds) {
  return decide_beside(match, has_clock, thresholds, cpu_samples);
}

/// Instruction counts decided as a timing is, with no clock: a deterministic program's
/// counts repeat exactly, so each side's interval is a point, and a change is a clear gap.
std::optional<StateComparison> decide_instructions(const MatchedState& match,
                                                   const DiffThresholds& thresholds) {
  std::optional<StateComparison> decided =
      decide_beside(match, false, thresholds, instruction_samples);
  if (!decided) return std::nullopt;
  StateComparison& comparison = *decided;
  const std::vector<double>& reference = *instruction_samples(*match.reference);
  const std::vector<double>& compare = *instruction_samples(*match.compare);
  // A deterministic program repeats its count to a handful of instructions (its
  // environment's size), so each side's interval is a point and two points never overlap:
  // counts this close are the same work.
  constexpr double kCountResolution = 1e-4;
  const auto within = [&](const std::vector<double>& counts, double center) {
    return std::all_of(counts.begin(), counts.end(), [&](double count) {
      return std::abs(count - center) <= kCountResolution * center;
    });
  };
  if (comparison.status != DiffStatus::kSame && comparison.reference && comparison.compare &&
      comparison.reference->center > 0 && within(reference, comparison.compare->center) &&
      within(compare, comparison.reference->center)) {
    comparison.status = DiffStatus::kSame;
    comparison.reason = {
        "same_count",
        fmt::format("the instruction counts differ by {:.0f} ({:+.5f}%), within the 0.01% a "
                    "deterministic program's counts move by",
                    comparison.compare->center - comparison.reference->center,
                    (comparison.compare->center / comparison.reference->center - 1) * 100),
        0};
  }
  return decided;
}

StateComparison decide(const MatchedState& match, bool has_clock, const DiffThresholds& thresholds,
                       std::vector<std::string>& warnings) {
  if (!match.reference) {
    return unknown_state({"only_in_compare", "the state is in the compare file only"});
  }
  if (!match.compare) {
    return unknown_state({"only_in_reference", "the state is in the reference file only"});
  }
  if (match.reference->skipped || match.compare->skipped) {
    const auto& skipped = match.reference->skipped ? *match.reference : *match.compare;
    const std::string side = match.reference->skipped ? "reference" : "compare";
    std::string message = "the " + side + " state was skipped";
    if (!skipped.skip_reason.empty()) message += ": " + skipped.skip_reason;
    return unknown_state({"state_skipped", message});
  }
  StateSamples reference(*match.reference, warnings);
  StateSamples compare(*match.compare, warnings);
  StateComparison comparison = compare_states(match.reference->summary, match.compare->summary,
                                              &reference, &compare, has_clock, thresholds);
  comparison.u_test = u_test(match.reference->samples, match.compare->samples, has_clock);
  return comparison;
}

/// One more match of `status`, in real-time or CPU-time counts (same fields in both).
template <class Counts>
void add_status(Counts& counts, DiffStatus status) {
  switch (status) {
    case DiffStatus::kSame:
      ++counts.same;
      break;
    case DiffStatus::kFast:
      ++counts.fast;
      break;
    case DiffStatus::kSlow:
      ++counts.slow;
      break;
    case DiffStatus::kAmbiguous:
      ++counts.ambiguous;
      break;
    case DiffStatus::kUnknown:
      ++counts.unknown;
      break;
  }
}

void count(DiffCounts& counts, const MatchedState& match, const StateComparison& comparison) {
  auto remember = [&](std::map<std::string, ReasonCount>& reasons) {
    auto& entry = reasons[comparison.reason.code];
    if (entry.count == 0 || comparison.reason.severity > entry.severity) {
      entry.message = comparison.reason.message;
      entry.severity = comparison.reason.severity;
    }
    ++entry.count;
  };
  remember(counts.reasons);
  if (!match.reference || !match.compare) {
    ++(match.reference ? counts.only_in_reference : counts.only_in_compare);
    return;
  }
  ++counts.total;
  add_status(counts, comparison.status);
  if (comparison.status == DiffStatus::kAmbiguous) remember(counts.ambiguous_reasons);
}

void count_beside(DiffCounts::Beside& counts, const StateComparison& comparison) {
  ++counts.total;
  add_status(counts, comparison.status);
}

/// Decides every pair, spread over the machine's cores: each pair is independent (its own
/// samples, read from its own files), and with bulk samples the decisions cost as much as
/// reading the JSON. Each decision goes straight into its row (a separate array of them
/// was 1.5 MB of fresh pages for 2,040 states). Warnings keep the pairs' order whatever the
/// threads do. Pairs `early` holds are taken from it.
void decide_all(const std::vector<DiffRow*>& work, bool has_clock, const DiffThresholds& thresholds,
                std::vector<std::string>& warnings, const DiffProgress& progress,
                const EarlyDecisions* early) {
  // Blocks handed out one at a time, not one contiguous half per thread: the pairs decided
  // early cluster at the start, and a thread given those would idle. Each block keeps its
  // warnings, joined in block order, so they are in pair order.
  constexpr std::size_t kBlock = 16;
  const std::size_t blocks = (work.size() + kBlock - 1) / kBlock;
  const std::size_t threads =
      std::min<std::size_t>(std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16),
                            std::max<std::size_t>(1, work.size() / 64));
  std::vector<std::vector<std::string>> block_warnings(blocks);
  std::atomic<std::size_t> next_block{0};
  std::atomic<std::size_t> decided{0};
  const std::size_t step = std::max<std::size_t>(1, work.size() / 200);
  auto run = [&](bool reports) {
    for (std::size_t block;
         (block = next_block.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
      const std::size_t end = std::min(work.size(), (block + 1) * kBlock);
      for (std::size_t i = block * kBlock; i < end; ++i) {
        DiffRow& row = *work[i];
        const EarlyDecision* found = early != nullptr ? early->find(row.match) : nullptr;
        if (found != nullptr) {
          row.comparison = found->decided.timing;
          row.cpu = found->decided.cpu;
          row.instructions = found->decided.instructions;
          auto& into = block_warnings[block];
          into.insert(into.end(), found->warnings.begin(), found->warnings.end());
        } else {
          DecidedPair pair = decide_pair(row.match, has_clock, thresholds, block_warnings[block]);
          row.comparison = std::move(pair.timing);
          row.cpu = std::move(pair.cpu);
          row.instructions = std::move(pair.instructions);
        }
        const std::size_t done = decided.fetch_add(1, std::memory_order_relaxed) + 1;
        // Only one thread reports, so the callback needs no lock.
        if (reports && progress && done % step == 0) progress(done, work.size());
      }
    }
  };
  if (threads == 1) {
    run(true);
  } else {
    std::vector<std::future<void>> pending;
    for (std::size_t t = 1; t < threads; ++t) {
      pending.push_back(std::async(std::launch::async, run, false));
    }
    run(true);
    for (auto& task : pending) task.get();
  }
  for (auto& list : block_warnings) {
    warnings.insert(warnings.end(), list.begin(), list.end());
  }
}

}  // namespace

std::string_view beside_name(BesideMetric metric) {
  return metric == BesideMetric::kCpuTime ? "cpu_time" : "instructions";
}

std::string_view beside_title(BesideMetric metric) {
  return metric == BesideMetric::kCpuTime ? "CPU time" : "Instructions";
}

DecidedPair decide_pair(const MatchedState& match, bool has_clock, const DiffThresholds& thresholds,
                        std::vector<std::string>& warnings) {
  return {decide(match, has_clock, thresholds, warnings), decide_cpu(match, has_clock, thresholds),
          decide_instructions(match, thresholds)};
}

DiffOutcome run_diff(const ingest::ResultFile& reference, const ingest::ResultFile& compare,
                     const MatchOptions& options, const DiffThresholds& thresholds,
                     const DiffProgress& progress, const EarlyDecisions* early) {
  if (reference.devices.empty() != compare.devices.empty()) {
    throw Error(ExitCode::kDataError,
                "cannot compare " + reference.path.string() + " (" +
                    std::string(ingest::to_string(reference.format)) + ") with " +
                    compare.path.string() + " (" + std::string(ingest::to_string(compare.format)) +
                    "): one has per-device results and the other has none. Compare files "
                    "written by the same kind of benchmark.");
  }
  DiffOutcome outcome;
  auto matched = match_states(reference, compare, options);
  outcome.warnings = std::move(matched.warnings);
  const bool has_clock =
      ingest::format_has_clock(reference.format) && ingest::format_has_clock(compare.format);

  // The rows first, each with its match; the decisions are then written into them.
  outcome.sections.reserve(matched.sections.size());
  std::vector<DiffRow*> work;
  for (auto& section : matched.sections) {
    DiffSection& result = outcome.sections.emplace_back();
    result.benchmark = std::move(section.benchmark);
    result.reference_device = std::move(section.reference_device);
    result.compare_device = std::move(section.compare_device);
    result.axis_names = std::move(section.axis_names);
    result.rows.resize(section.states.size());
    for (std::size_t i = 0; i < section.states.size(); ++i) {
      result.rows[i].match = section.states[i];
      work.push_back(&result.rows[i]);
    }
  }
  if (early != nullptr && !early->decided_with(has_clock, thresholds)) early = nullptr;
  decide_all(work, has_clock, thresholds, outcome.warnings, progress, early);

  for (const auto& section : outcome.sections) {
    for (const auto& row : section.rows) {
      count(outcome.counts, row.match, row.comparison);
      for (const BesideMetric metric : kBesideMetrics) {
        if (const auto& beside = row.beside(metric)) {
          count_beside(outcome.counts.beside(metric), *beside);
        }
      }
    }
  }
  return outcome;
}

}  // namespace perfgate::diff
