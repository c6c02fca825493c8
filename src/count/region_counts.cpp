#include "count/region_counts.hpp"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <optional>
#include <utility>

namespace perfgate {
namespace {

constexpr std::string_view kMarkPrefix = "Client Request: perfgate-probe ";

/// Splits off the next space-separated word of `text`.
std::string_view next_word(std::string_view& text) {
  const std::size_t space = text.find(' ');
  const std::string_view word = text.substr(0, space);
  text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
  return word;
}

std::optional<std::uint64_t> number(std::string_view word) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (word.empty() || error != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

using RunKey = std::pair<std::uint64_t, std::uint64_t>;  // (thread, the thread's run number)

struct Open {
  std::string id;
  RunKey run;
  std::uint64_t start = 0;
};

struct RunSeen {
  std::optional<std::uint64_t> warmups;  // nullopt: none set, the implicit rule
  bool complete = false;
};

class MarkReader {
 public:
  void read(std::string_view mark, std::uint64_t now) {
    const std::string_view kind = next_word(mark);
    if (kind == "R") {
      const auto thread = number(next_word(mark));
      const auto run = number(next_word(mark));
      const std::string_view warmups = next_word(mark);
      if (!thread || !run) return;
      RunSeen& seen = runs_[*thread][*run];
      if (warmups != "-") seen.warmups = number(warmups);
    } else if (kind == "r") {
      const auto thread = number(next_word(mark));
      const auto run = number(next_word(mark));
      if (!thread || !run) return;
      const auto it = runs_.find(*thread);
      if (it == runs_.end()) return;
      const auto seen = it->second.find(*run);
      if (seen != it->second.end()) seen->second.complete = true;
    } else if (kind == "E") {
      const auto thread = number(next_word(mark));
      const auto owner = number(next_word(mark));
      const auto run = number(next_word(mark));
      const auto depth = number(next_word(mark));
      if (!thread || !owner || !run || !depth || mark.empty() || *depth > 1000000) return;
      depth_[std::string(mark)] = static_cast<int>(*depth);
      open_[*thread].push_back(Open{std::string(mark), RunKey{*owner, *run}, now});
    } else if (kind == "X") {
      const auto thread = number(next_word(mark));
      if (!thread) return;
      auto& stack = open_[*thread];
      // The innermost open call of the region; calls opened inside it and still open
      // ended out of order, and are not counted.
      for (std::size_t i = stack.size(); i-- > 0;) {
        if (stack[i].id != mark) continue;
        if (stack[i].run.second != 0) spent_[stack[i].run][stack[i].id] += now - stack[i].start;
        stack.resize(i);
        break;
      }
    } else if (kind == "capped") {
      capped_ = std::string(mark);
    }
  }

  RegionCounts finish() const {
    RegionCounts out;
    std::map<std::string, std::uint64_t> total;
    for (const auto& [thread, runs] : runs_) {
      for (const auto& [run, seen] : runs) {
        // The probe's rule (probe.hpp, set_warmup_runs): the first `warmups` runs of a
        // thread, or with none set its first run when more follow it.
        const bool warmup = seen.warmups ? run <= *seen.warmups : run == 1 && runs.size() > 1;
        if (!seen.complete || warmup) continue;
        ++out.measured_runs;
        const auto spent = spent_.find(RunKey{thread, run});
        if (spent == spent_.end()) continue;
        for (const auto& [id, count] : spent->second) total[id] += count;
      }
    }
    if (!capped_.empty()) {
      out.warnings.push_back(fmt::format(
          "REGION_COUNTS_CAPPED: the probe stopped marking region boundaries for callgrind "
          "after {} marks (each costs a dump); the region counts are of the {} measured "
          "run(s) that ended before",
          capped_, out.measured_runs));
    }
    if (out.measured_runs == 0) return out;
    for (const auto& [id, count] : total) {
      out.regions.push_back(RegionCount{
          id, depth_.at(id), static_cast<double>(count) / static_cast<double>(out.measured_runs)});
    }
    return out;
  }

 private:
  std::map<std::uint64_t, std::map<std::uint64_t, RunSeen>> runs_;
  std::map<std::uint64_t, std::vector<Open>> open_;
  std::map<RunKey, std::map<std::string, std::uint64_t>> spent_;
  std::map<std::string, int> depth_;
  std::string capped_;
};

}  // namespace

RegionCounts region_counts(const CallgrindProfile& profile) {
  MarkReader reader;
  std::uint64_t now = 0;  // the process's instructions up to the end of this dump
  for (const auto& part : profile.parts) {
    const auto ir = part.counts.find("Ir");
    if (ir != part.counts.end()) now += ir->second;
    if (part.trigger.compare(0, kMarkPrefix.size(), kMarkPrefix) != 0) continue;
    reader.read(std::string_view(part.trigger).substr(kMarkPrefix.size()), now);
  }
  return reader.finish();
}

RegionCounts add_region_counts(const std::vector<RegionCounts>& processes) {
  RegionCounts out;
  std::map<std::string, RegionCount> sum;
  for (const auto& process : processes) {
    out.measured_runs += process.measured_runs;
    for (const auto& region : process.regions) {
      auto [it, fresh] = sum.try_emplace(region.id, region);
      if (!fresh) it->second.instructions += region.instructions;
    }
    out.warnings.insert(out.warnings.end(), process.warnings.begin(), process.warnings.end());
  }
  for (auto& [id, region] : sum) out.regions.push_back(std::move(region));
  return out;
}

}  // namespace perfgate
