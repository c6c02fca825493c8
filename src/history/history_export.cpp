#include "history/history_export.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "history/regression_flags.hpp"
#include "history/series_identity.hpp"
#include "model/compact_json.hpp"
#include "model/instant.hpp"
#include "model/metric.hpp"
#include "model/parallel_for.hpp"
#include "stats/change_points_json.hpp"

namespace perfgate::history {
namespace {

/// One compatibility series while it is gathered, its points in commit order.
struct SeriesColumns {
  std::string id;
  std::string environment;  ///< environment_id of its attempts: a series is of one machine
  std::string setup;        ///< setup_id of its attempts
  std::size_t slot = 0;     ///< the number of that (environment, setup) pair
  const HistoryAttempt* first_attempt = nullptr;
  const MeasuredCase* first_case = nullptr;
  std::string metric;
  std::string unit;
  std::vector<std::size_t> commit;   ///< index into the commits array
  std::vector<std::size_t> attempt;  ///< index into the attempts array
  std::vector<double> median, mad, min, max;
  std::vector<bool> flags;
};

/// The attempts' indices ordered by started_at (as instant_before orders it), then identity.
std::vector<std::size_t> attempts_in_start_order(const std::vector<HistoryAttempt>& attempts) {
  std::vector<std::optional<std::int64_t>> start_us;
  start_us.reserve(attempts.size());
  for (const HistoryAttempt& a : attempts) start_us.push_back(parse_instant_us(a.started_at));
  std::vector<std::size_t> order(attempts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Instants parsed once: the same order as instant_before, without parsing per comparison.
  const auto before = [&](std::size_t x, std::size_t y) {
    if (start_us[x] && start_us[y]) {
      if (*start_us[x] != *start_us[y]) return *start_us[x] < *start_us[y];
    } else {
      if (instant_before(attempts[x].started_at, attempts[y].started_at)) return true;
      if (instant_before(attempts[y].started_at, attempts[x].started_at)) return false;
    }
    return attempts[x].identity < attempts[y].identity;
  };
  std::sort(order.begin(), order.end(), before);
  return order;
}

void write_attempt(CompactJsonWriter& w, const HistoryAttempt& a, bool superseded) {
  w.begin_object();
  w.key("attempt").value(a.identity.attempt);
  w.key("benchmark_sources").begin_object();
  for (const auto& [path, id] : a.benchmark_sources) w.key(path).value(id);
  w.end_object();
  w.key("case_count").value(std::uint64_t{a.cases.size()});
  w.key("configuration").value(a.configuration);
  w.key("environment").value(a.environment);
  w.key("errors").begin_array();
  for (const AttemptError& error : a.errors) {
    w.begin_object().key("message").value(error.message).key("stage").value(error.stage);
    w.end_object();
  }
  w.end_array();
  w.key("finished_at").value(a.finished_at);
  w.key("harness_sha").value(a.harness_sha);
  w.key("harness_version").value(a.harness_version);
  w.key("id").value(a.identity.text());
  w.key("label").value(a.label);
  w.key("missing_cases").begin_array();
  for (const std::string& name : a.missing_cases) w.value(name);
  w.end_array();
  w.key("raw_path").value(a.raw_path);
  w.key("run").value(a.identity.run);
  w.key("sha").value(a.identity.sha);
  w.key("started_at").value(a.started_at);
  w.key("status").value(a.success ? "success" : "failure");
  w.key("superseded").value(superseded);
  w.end_object();
}

/// Appends `part` to an injective key: its length, a colon, its bytes.
void append_key_part(std::string& key, std::string_view part) {
  key += std::to_string(part.size());
  key += ':';
  key += part;
}

/// The series of the winning successful attempts, gathered commit by commit (oldest first).
class SeriesSet {
 public:
  /// Adds the points of `winner`, whose series_attempt_part is `attempt_part`, measured in
  /// measurement slot `slot` (its environment and setup).
  void add(const HistoryAttempt& winner, std::string attempt_part, std::size_t attempt_pos,
           std::size_t commit, std::size_t measurement_slot) {
    const auto part = parts_.emplace(std::move(attempt_part), parts_.size()).first;
    if (recent_.size() <= part->second) recent_.resize(part->second + 1);
    std::vector<CaseSlot>& recent = recent_[part->second];
    for (std::size_t i = 0; i < winner.cases.size(); ++i) {
      const MeasuredCase& c = winner.cases[i];
      if (recent.size() <= i) recent.emplace_back();
      CaseSlot& slot = recent[i];
      if (slot.shape == nullptr || !same_shape(*slot.shape, c)) {
        slot.shape = &c;
        slot.series.clear();
        for (const auto& [metric, value] : c.metrics) {
          slot.series.push_back(
              series_index(*part, winner, c, metric, value.unit, measurement_slot));
        }
      }
      auto series = slot.series.begin();
      for (const auto& [metric, value] : c.metrics) {
        SeriesColumns& s = series_[*series++];
        s.commit.push_back(commit);
        s.attempt.push_back(attempt_pos);
        s.median.push_back(value.median);
        s.mad.push_back(value.mad);
        s.min.push_back(value.min);
        s.max.push_back(value.max);
      }
    }
  }

  /// The series, ordered: most points first, then the newest last commit, then id. Their
  /// flags are left for confirmed_flags(), which decides them.
  std::vector<SeriesColumns> finish() && {
    for (SeriesColumns& s : series_) s.flags.assign(s.median.size(), false);
    std::sort(series_.begin(), series_.end(), [](const SeriesColumns& a, const SeriesColumns& b) {
      if (a.commit.size() != b.commit.size()) return a.commit.size() > b.commit.size();
      if (a.commit.back() != b.commit.back()) return a.commit.back() > b.commit.back();
      return a.id < b.id;
    });
    return std::move(series_);
  }

 private:
  /// A case of the last attempt of an attempt part, and the series of its metrics in the
  /// metrics' order: attempts mostly list the same cases in the same order, and a case of
  /// the same shape in the same place belongs to the same series.
  struct CaseSlot {
    const MeasuredCase* shape = nullptr;
    std::vector<std::size_t> series;
  };

  static bool same_shape(const MeasuredCase& a, const MeasuredCase& b) {
    return a.name == b.name && a.source_id == b.source_id && a.threads == b.threads &&
           a.repetitions == b.repetitions &&
           std::equal(a.metrics.begin(), a.metrics.end(), b.metrics.begin(), b.metrics.end(),
                      [](const auto& x, const auto& y) {
                        return x.first == y.first && x.second.unit == y.second.unit;
                      });
  }

  /// The series of one metric of a case, found by an injective key of everything series_id
  /// hashes (built in one reused buffer, the attempt part as its number), so that
  /// series_id runs once per series.
  std::size_t series_index(const std::pair<const std::string, std::size_t>& part,
                           const HistoryAttempt& winner, const MeasuredCase& c,
                           const std::string& metric, const std::string& unit,
                           std::size_t measurement_slot) {
    key_.clear();
    key_ += std::to_string(part.second);
    key_ += '/';
    for (const std::string* text : {&c.name, &c.source_id, &metric, &unit}) {
      append_key_part(key_, *text);
    }
    key_ += std::to_string(c.threads);
    key_ += '/';
    key_ += std::to_string(c.repetitions);
    const auto [found, added] = by_key_.emplace(key_, series_.size());
    if (added) {
      SeriesColumns s;
      s.id = series_id(part.first, c, metric);
      s.environment = environment_id(winner);
      s.setup = setup_id(winner);
      s.slot = measurement_slot;
      s.first_attempt = &winner;
      s.first_case = &c;
      s.metric = metric;
      s.unit = unit;
      series_.push_back(std::move(s));
    }
    return found->second;
  }

  std::vector<SeriesColumns> series_;
  std::unordered_map<std::string, std::size_t> parts_;   ///< attempt part -> its number
  std::unordered_map<std::string, std::size_t> by_key_;  ///< series key -> index in series_
  std::string key_;
  std::vector<std::vector<CaseSlot>> recent_;  ///< by attempt part number
};

/// The monitored commits, oldest first, each once.
std::vector<std::string> monitored_commits(const Ledger& ledger) {
  std::unordered_set<std::string> seen;
  seen.reserve(ledger.monitored.size());
  std::vector<std::string> shas;
  shas.reserve(ledger.monitored.size());
  for (const std::string& sha : ledger.monitored) {
    if (seen.insert(sha).second) shas.push_back(sha);
  }
  return shas;
}

/// Ordered by path, which names each file once.
void write_rejected(CompactJsonWriter& w, const std::vector<RejectedAttempt>& rejected) {
  std::vector<const RejectedAttempt*> sorted;
  sorted.reserve(rejected.size());
  for (const RejectedAttempt& r : rejected) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RejectedAttempt* a, const RejectedAttempt* b) { return a->path < b->path; });
  w.begin_array();
  for (const RejectedAttempt* r : sorted) {
    w.begin_object();
    w.key("id").value(r->identity).key("path").value(r->path).key("reason").value(r->reason);
    w.end_object();
  }
  w.end_array();
}

template <class Column>
void write_column(CompactJsonWriter& w, const Column& column) {
  w.begin_array();
  for (const auto value : column) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>) {
      w.value(value);
    } else {
      w.value(static_cast<std::uint64_t>(value));
    }
  }
  w.end_array();
}

void write_series(CompactJsonWriter& w, const SeriesColumns& s,
                  const std::vector<std::string>& shas) {
  w.begin_object();
  w.key("case").value(s.first_case->name);
  // The change points of the medians, as history changes --history finds them.
  const auto standard = standard_metric(s.metric);
  w.key("changes");
  stats::write_change_points(w, s.median, {},
                             !standard || standard->direction == Direction::kLowerIsBetter);
  w.key("count").value(std::uint64_t{s.commit.size()});
  w.key("environment").value(s.first_attempt->environment);
  w.key("first_commit").value(shas[s.commit.front()]);
  w.key("harness_version").value(s.first_attempt->harness_version);
  w.key("id").value(s.id);
  w.key("label").value(s.first_attempt->label);
  w.key("last_commit").value(shas[s.commit.back()]);
  w.key("metric").value(s.metric);
  w.key("points").begin_object();
  w.key("attempt");
  write_column(w, s.attempt);
  w.key("commit");
  write_column(w, s.commit);
  w.key("flag");
  write_column(w, s.flags);
  w.key("mad");
  write_column(w, s.mad);
  w.key("max");
  write_column(w, s.max);
  w.key("median");
  write_column(w, s.median);
  w.key("min");
  write_column(w, s.min);
  w.end_object();
  w.key("threads").value(s.first_case->threads);
  w.key("unit").value(s.unit);
  w.end_object();
}

/// Each series' text, formatted on every core: their columns are most of the document.
std::vector<std::string> formatted_series(const std::vector<SeriesColumns>& series,
                                          const std::vector<std::string>& shas) {
  std::vector<std::string> texts(series.size());
  parallel_for(series.size(), [&](std::size_t i) {
    CompactJsonWriter w(texts[i]);
    write_series(w, series[i], shas);
  });
  return texts;
}

void write_change_percent(CompactJsonWriter& w, double previous, double median) {
  w.key("change_percent");
  if (previous > 0) {
    w.value((median - previous) * 100 / previous);
  } else {
    w.null();
  }
}

/// A commit's point of a series and the attempt (position in start order) it comes from.
struct MeasuredPoint {
  SeriesPoint point;
  std::size_t attempt = 0;
};

/// A flag of the winning measurements, or of the earlier ones a re-measurement replaced.
struct FlagEntry {
  const SeriesColumns* series = nullptr;
  std::size_t point = 0;  ///< index of the flagged point in the series (> 0)
  FlagConfirmation confirmation = FlagConfirmation::kNotRemeasured;
  /// The two commits' points the flag compares: measured in one batch where they were.
  SeriesPoint previous, current;
  /// The earlier measurement of both commits, when both were measured again.
  std::optional<SeriesPoint> earlier_previous, earlier;
  /// Each measurement's runs compared round by round, where they were (the winning one's,
  /// the earlier one's).
  std::optional<PairedRise> paired, earlier_paired;
};

/// "paired": a measurement's runs compared round by round, or null where they were not.
void write_paired(CompactJsonWriter& w, const std::optional<PairedRise>& paired) {
  w.key("paired");
  if (!paired) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("change_percent").value(paired->change * 100);
  w.key("lower_percent").value(paired->lower * 100);
  w.key("lower_rise").value(paired->lower_rise);
  w.key("rises").value(paired->rises);
  w.key("rounds").value(std::uint64_t{paired->rounds});
  w.end_object();
}

void write_flag(CompactJsonWriter& w, const FlagEntry& flag, const std::vector<std::string>& shas) {
  const SeriesColumns& s = *flag.series;
  const std::size_t i = flag.point;
  w.begin_object();
  write_change_percent(w, flag.previous.median, flag.current.median);
  w.key("commit").value(shas[s.commit[i]]);
  w.key("confirmation").value(to_string(flag.confirmation));
  w.key("earlier");
  if (flag.earlier && flag.earlier_previous) {
    w.begin_object();
    write_change_percent(w, flag.earlier_previous->median, flag.earlier->median);
    w.key("median").value(flag.earlier->median);
    write_paired(w, flag.earlier_paired);
    w.key("previous_median").value(flag.earlier_previous->median);
    w.end_object();
  } else {
    w.null();
  }
  w.key("median").value(flag.current.median);
  write_paired(w, flag.paired);
  w.key("previous_commit").value(shas[s.commit[i - 1]]);
  w.key("previous_median").value(flag.previous.median);
  w.key("series").value(s.id);
  w.end_object();
}

/// Each series' point as measured before the winning attempt, by series id and commit
/// index: the earlier successful attempt of every commit measured more than once.
using EarlierPoints =
    std::unordered_map<std::string, std::unordered_map<std::size_t, MeasuredPoint>>;

EarlierPoints earlier_points(const std::vector<SeriesColumns>& earlier_series) {
  EarlierPoints points;
  for (const SeriesColumns& s : earlier_series) {
    auto& by_commit = points[s.id];
    for (std::size_t i = 0; i < s.commit.size(); ++i)
      by_commit.emplace(s.commit[i], MeasuredPoint{{s.median[i], s.mad[i]}, s.attempt[i]});
  }
  return points;
}

/// The runs of a series' metric in the attempt at a position in start order; nullopt when
/// they cannot be read.
using RunsOf = std::function<std::optional<std::vector<double>>(std::size_t attempt,
                                                                const SeriesColumns& series)>;

/// The flags of the series, each confirmed, unconfirmed or not yet re-measured by the
/// earlier measurement of its two commits; and the flags the earlier measurement raised
/// that the winning one does not (unconfirmed: never hidden). `remeasured[slot][c]`: commit
/// c has an earlier successful attempt as well as its winner in that measurement slot.
/// `same_batch(x, y)`: attempts x and y were measured by one `history measure`. `runs_of`:
/// where a measurement's two commits were measured together and their runs can be read,
/// that measurement's side of a confirmation is their runs paired round by round.
///
/// A flag compares two neighbours as measured in one batch where they were, and their
/// winners otherwise: when only one of them was measured again (a flag's re-measurement
/// beside a commit that was not), its earlier measurement met its neighbour's moments of
/// the machine and its winner did not, and a load that came and went between the batches
/// would flag a commit that changes nothing.
std::vector<FlagEntry> confirmed_flags(
    std::vector<SeriesColumns>& series, const EarlierPoints& earlier,
    const std::vector<std::vector<bool>>& remeasured, const RegressionFlagRule& rule,
    const std::function<bool(std::size_t, std::size_t)>& same_batch, const RunsOf& runs_of) {
  std::vector<FlagEntry> flags;
  for (SeriesColumns& s : series) {
    const auto found = earlier.find(s.id);
    const auto earlier_of = [&](std::size_t commit) -> const MeasuredPoint* {
      if (found == earlier.end()) return nullptr;
      const auto point = found->second.find(commit);
      return point == found->second.end() ? nullptr : &point->second;
    };
    for (std::size_t i = 1; i < s.commit.size(); ++i) {
      MeasuredPoint previous{{s.median[i - 1], s.mad[i - 1]}, s.attempt[i - 1]};
      MeasuredPoint current{{s.median[i], s.mad[i]}, s.attempt[i]};
      const MeasuredPoint* earlier_previous = earlier_of(s.commit[i - 1]);
      const MeasuredPoint* earlier_current = earlier_of(s.commit[i]);
      bool winners = true;
      if (!same_batch(previous.attempt, current.attempt)) {
        if (earlier_previous && same_batch(earlier_previous->attempt, current.attempt)) {
          previous = *earlier_previous;
          winners = false;
        } else if (earlier_current && same_batch(previous.attempt, earlier_current->attempt)) {
          current = *earlier_current;
          winners = false;
        }
      }
      FlagEntry flag{&s,
                     i,
                     FlagConfirmation::kNotRemeasured,
                     previous.point,
                     current.point,
                     std::nullopt,
                     std::nullopt,
                     std::nullopt,
                     std::nullopt};
      const bool flagged = rises_markedly(previous.point, current.point, rule, s.unit);
      bool earlier_flagged = false;
      const std::vector<bool>& again = remeasured[s.slot];
      if (winners && again[s.commit[i]] && again[s.commit[i - 1]] && earlier_previous &&
          earlier_current) {
        flag.earlier_previous = earlier_previous->point;
        flag.earlier = earlier_current->point;
        earlier_flagged =
            rises_markedly(earlier_previous->point, earlier_current->point, rule, s.unit);
      }
      // The point's flag column marks every listed flag, the earlier measurement's too, so
      // that the viewer shows it beside its confirmation.
      s.flags[i] = flagged || earlier_flagged;
      if (!s.flags[i]) continue;
      if (flag.earlier) {
        // Each measurement shows the rise or not: where its two commits were measured
        // together, their runs met the same moments round by round, and their ratios show a
        // rise that a moment slowing both hides in the MADs the rule weighs; elsewhere the
        // rule on the points decides (docs/history.md, "Confirming flags").
        const auto shows_rise = [&](std::size_t before, std::size_t after, bool by_points,
                                    std::optional<PairedRise>& paired) {
          if (same_batch(before, after)) {
            const auto runs_before = runs_of(before, s);
            const auto runs_after = runs_before ? runs_of(after, s) : std::nullopt;
            if (runs_after) paired = paired_rise(*runs_before, *runs_after, rule, s.unit);
          }
          return paired ? paired->rises : by_points;
        };
        const bool again_rises =
            shows_rise(previous.attempt, current.attempt, flagged, flag.paired);
        const bool first_rises = shows_rise(earlier_previous->attempt, earlier_current->attempt,
                                            earlier_flagged, flag.earlier_paired);
        flag.confirmation = again_rises && first_rises ? FlagConfirmation::kConfirmed
                                                       : FlagConfirmation::kUnconfirmed;
      }
      flags.push_back(flag);
    }
  }
  return flags;
}

}  // namespace

const char* to_string(FlagConfirmation confirmation) {
  switch (confirmation) {
    case FlagConfirmation::kConfirmed:
      return "confirmed";
    case FlagConfirmation::kUnconfirmed:
      return "unconfirmed";
    case FlagConfirmation::kNotRemeasured:
      break;
  }
  return "not_remeasured";
}

ExportSummary write_history(const ExportInput& input, std::string& out) {
  const std::vector<HistoryAttempt>& attempts = input.attempts;
  const std::vector<std::size_t> order = attempts_in_start_order(attempts);

  // Each attempt's measurement slot: the machine and the setup it measured in. A commit is
  // measured per slot: a second machine, or a new configuration, never hides another's
  // measurement (issue 35). Hashing the setups runs on every core.
  std::vector<std::string> environment_of(order.size()), setup_of(order.size());
  parallel_for(order.size(), [&](std::size_t pos) {
    environment_of[pos] = environment_id(attempts[order[pos]]);
    setup_of[pos] = setup_id(attempts[order[pos]]);
  });
  std::unordered_map<std::string, std::size_t> slot_numbers;
  std::vector<std::size_t> slot_of(order.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    std::string key = environment_of[pos];
    key += '\n';
    key += setup_of[pos];
    slot_of[pos] = slot_numbers.emplace(std::move(key), slot_numbers.size()).first->second;
  }
  // Each sha's attempts as positions in `order`, oldest start first.
  std::unordered_map<std::string, std::vector<std::size_t>> by_sha;
  by_sha.reserve(attempts.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    by_sha[attempts[order[pos]].identity.sha].push_back(pos);
  }

  const std::vector<std::string> shas = monitored_commits(input.ledger);
  ExportSummary summary;
  summary.monitored = shas.size();
  // Each monitored commit's attempts (positions in `order`); nullptr: never attempted.
  std::vector<const std::vector<std::size_t>*> tried_of(shas.size(), nullptr);
  // The winning attempts: per commit and slot the last one started. The successful ones
  // as (position in `order`, commit index), oldest first; and of those commits measured
  // again in the slot, the successful attempt before the winner.
  std::vector<bool> wins(order.size(), false);
  std::vector<std::pair<std::size_t, std::size_t>> winners;
  std::vector<std::pair<std::size_t, std::size_t>> earlier;
  std::vector<std::vector<bool>> remeasured(slot_numbers.size(),
                                            std::vector<bool>(shas.size(), false));
  // Per commit: the winner that stands for it on each environment (the latest started of
  // its slots' winners there), and the one that stands for it overall.
  std::vector<std::map<std::string, std::size_t>> on_environment(shas.size());
  std::vector<std::optional<std::size_t>> standing(shas.size());
  std::map<std::string, std::pair<std::size_t, std::size_t>> environment_counts;
  // In each commit's slots the last attempt started wins (of every commit, monitored or not).
  for (const auto& [sha, positions] : by_sha) {
    std::unordered_set<std::size_t> seen;
    for (auto pos = positions.rbegin(); pos != positions.rend(); ++pos) {
      if (seen.insert(slot_of[*pos]).second) wins[*pos] = true;
    }
  }
  for (std::size_t index = 0; index < shas.size(); ++index) {
    const auto tried = by_sha.find(shas[index]);
    if (tried == by_sha.end()) continue;
    tried_of[index] = &tried->second;
    const std::vector<std::size_t>& positions = tried->second;
    bool measured = false;
    for (auto pos = positions.rbegin(); pos != positions.rend(); ++pos) {
      const std::size_t slot = slot_of[*pos];
      if (!wins[*pos]) {
        // An earlier attempt of a slot whose winner succeeded: the re-measured one.
        const auto winner = std::find_if(positions.rbegin(), pos,
                                         [&](std::size_t other) { return slot_of[other] == slot; });
        if (attempts[order[*winner]].success && attempts[order[*pos]].success &&
            !remeasured[slot][index]) {
          earlier.emplace_back(*pos, index);
          remeasured[slot][index] = true;
        }
        continue;
      }
      const bool success = attempts[order[*pos]].success;
      if (success) winners.emplace_back(*pos, index);
      // Positions run newest first here: the first winner of an environment stands for it.
      on_environment[index].emplace(environment_of[*pos], *pos);
      if (success && !measured) {
        measured = true;
        standing[index] = *pos;
      }
      if (!standing[index]) standing[index] = *pos;
    }
    ++(measured ? summary.measured : summary.failed);
    for (const auto& [environment, pos] : on_environment[index]) {
      auto& counts = environment_counts[environment];
      ++(attempts[order[pos]].success ? counts.first : counts.second);
    }
  }
  // Commit by commit, oldest first, as the series gather their points; a commit's winners
  // in start order.
  const auto by_commit = [](const std::pair<std::size_t, std::size_t>& x,
                            const std::pair<std::size_t, std::size_t>& y) {
    return std::tie(x.second, x.first) < std::tie(y.second, y.first);
  };
  std::sort(winners.begin(), winners.end(), by_commit);
  // Each winner's attempt part hashes its environment and configuration: on every core.
  std::vector<std::string> parts(winners.size());
  parallel_for(winners.size(), [&](std::size_t i) {
    parts[i] = series_attempt_part(attempts[order[winners[i].first]]);
  });
  SeriesSet gathered;
  for (std::size_t i = 0; i < winners.size(); ++i) {
    const auto [pos, commit] = winners[i];
    gathered.add(attempts[order[pos]], std::move(parts[i]), pos, commit, slot_of[pos]);
  }
  summary.missing = shas.size() - summary.measured - summary.failed;
  std::vector<SeriesColumns> series = std::move(gathered).finish();
  summary.series = series.size();
  // The earlier measurements, gathered as series of their own: a flag is confirmed when the
  // measurements before and after a re-measurement of both its commits both show the rise.
  SeriesSet earlier_gathered;
  std::sort(earlier.begin(), earlier.end(), by_commit);
  for (const auto& [pos, commit] : earlier) {
    earlier_gathered.add(attempts[order[pos]], series_attempt_part(attempts[order[pos]]), pos,
                         commit, slot_of[pos]);
  }
  const std::vector<SeriesColumns> earlier_series = std::move(earlier_gathered).finish();
  const auto same_batch = [&](std::size_t x, std::size_t y) {
    const AttemptIdentity& a = attempts[order[x]].identity;
    const AttemptIdentity& b = attempts[order[y]].identity;
    return a.attempt == b.attempt && a.run == b.run;
  };
  const RunsOf runs_of = [&](std::size_t pos,
                             const SeriesColumns& s) -> std::optional<std::vector<double>> {
    if (!input.run_samples) return std::nullopt;
    return input.run_samples(attempts[order[pos]], s.first_case->name, s.metric);
  };
  const std::vector<FlagEntry> flags = confirmed_flags(
      series, earlier_points(earlier_series), remeasured, input.flags, same_batch, runs_of);

  // Keys in sorted order, as docs/history-json.md promises.
  CompactJsonWriter w(out);
  w.begin_object();
  w.key("archive").value(input.archive);
  std::vector<std::string> attempt_texts(order.size());
  parallel_for(order.size(), [&](std::size_t pos) {
    const HistoryAttempt& a = attempts[order[pos]];
    CompactJsonWriter entry(attempt_texts[pos]);
    write_attempt(entry, a, !wins[pos]);
  });
  w.key("attempts").begin_array();
  for (std::string& text : attempt_texts) {
    w.raw(text);
    std::string().swap(text);
  }
  w.end_array();
  w.key("baseline").value(input.ledger.baseline);
  w.key("branch").value(input.branch);
  w.key("commit_url");
  if (!input.commit_url.empty()) {
    w.value(input.commit_url);
  } else {
    w.null();
  }
  w.key("commits").begin_array();
  for (std::size_t index = 0; index < shas.size(); ++index) {
    const auto info = input.commits.find(shas[index]);
    const std::vector<std::size_t>* tried = tried_of[index];
    w.begin_object();
    w.key("attempt");
    if (standing[index]) {
      w.value(attempts[order[*standing[index]]].identity.text());
    } else {
      w.null();
    }
    w.key("attempts").begin_array();
    if (tried) {
      for (const std::size_t pos : *tried) w.value(attempts[order[pos]].identity.text());
    }
    w.end_array();
    w.key("environments").begin_object();
    for (const auto& [environment, pos] : on_environment[index]) {
      w.key(environment).begin_object();
      w.key("attempt").value(attempts[order[pos]].identity.text());
      w.key("status").value(attempts[order[pos]].success ? "measured" : "failed");
      w.end_object();
    }
    w.end_object();
    w.key("sha").value(shas[index]);
    w.key("status").value(!standing[index]                            ? "missing"
                          : attempts[order[*standing[index]]].success ? "measured"
                                                                      : "failed");
    w.key("summary");
    if (info != input.commits.end()) {
      w.value(info->second.summary);
    } else {
      w.null();
    }
    w.key("time");
    if (info != input.commits.end()) {
      w.value(std::int64_t{info->second.time});
    } else {
      w.null();
    }
    w.key("url");
    if (!input.commit_url.empty()) {
      w.value(commit_link(input.commit_url, shas[index]));
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  w.key("coverage").begin_object();
  w.key("failed").value(std::uint64_t{summary.failed});
  w.key("measured").value(std::uint64_t{summary.measured});
  w.key("missing").value(std::uint64_t{summary.missing});
  w.key("monitored").value(std::uint64_t{summary.monitored});
  w.end_object();
  w.key("current").value(input.ledger.current);
  // Per machine: its coverage and the newest commit's state there.
  std::optional<std::size_t> current_index;
  for (std::size_t index = 0; index < shas.size(); ++index) {
    if (shas[index] == input.ledger.current) current_index = index;
  }
  w.key("environments").begin_array();
  for (const auto& [environment, counts] : environment_counts) {
    w.begin_object();
    w.key("coverage").begin_object();
    w.key("failed").value(std::uint64_t{counts.second});
    w.key("measured").value(std::uint64_t{counts.first});
    w.key("missing").value(std::uint64_t{shas.size() - counts.first - counts.second});
    w.end_object();
    const char* current_status = "missing";
    if (current_index) {
      const auto& there = on_environment[*current_index];
      if (const auto found = there.find(environment); found != there.end()) {
        current_status = attempts[order[found->second]].success ? "measured" : "failed";
      }
    }
    w.key("current").value(current_status);
    w.key("id").value(environment);
    w.end_object();
  }
  w.end_array();
  w.key("flags").begin_array();
  for (const FlagEntry& flag : flags) {
    write_flag(w, flag, shas);
    ++summary.flags;
    if (flag.confirmation == FlagConfirmation::kConfirmed) ++summary.confirmed_flags;
    if (flag.confirmation == FlagConfirmation::kUnconfirmed) ++summary.unconfirmed_flags;
    if (flag.confirmation == FlagConfirmation::kNotRemeasured) {
      summary.flags_to_confirm.push_back({shas[flag.series->commit[flag.point - 1]],
                                          shas[flag.series->commit[flag.point]],
                                          flag.series->environment, flag.series->setup});
    }
  }
  w.end_array();
  w.key("generated_at").value(input.generated_at);
  w.key("generated_by").value("perfgate " + input.perfgate_version);
  w.key("kind").value("perfgate-history");
  w.key("raw_url");
  if (!input.raw_url.empty()) {
    w.value(input.raw_url);
  } else {
    w.null();
  }
  w.key("rejected");
  write_rejected(w, input.rejected);
  w.key("schema_version").value(kHistoryExportSchemaVersion);
  const std::vector<std::string> series_texts = formatted_series(series, shas);
  std::size_t series_bytes = 0;
  for (const std::string& text : series_texts) series_bytes += text.size() + 1;
  // One allocation of the final size, not a doubling string's four: fresh pages cost.
  out.reserve(out.size() + series_bytes + input.source_sha.size() + 64);
  w.key("series").begin_array();
  for (const std::string& text : series_texts) w.raw(text);
  w.end_array();
  w.key("source_sha").value(input.source_sha);
  w.end_object();
  out += '\n';
  return summary;
}

std::string commit_link(const std::string& url, const std::string& sha) {
  std::string link;
  std::size_t from = 0;
  for (std::size_t at = url.find("{sha}"); at != std::string::npos; at = url.find("{sha}", from)) {
    link.append(url, from, at - from);
    link += sha;
    from = at + 5;
  }
  link.append(url, from, std::string::npos);
  return link;
}

}  // namespace perfgate::history
