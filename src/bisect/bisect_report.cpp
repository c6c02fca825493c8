#include "bisect/bisect_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "history/history_export.hpp"

namespace perfgate::bisect {
namespace {

std::string short_sha(const std::string& sha) {
  return sha.substr(0, 12);
}

/// The threshold both ways: "±2.0%".
std::string threshold_text(double threshold) {
  const std::string text = percent(threshold);
  return "±" + text.substr(1);
}

std::string interval_text(const Change& change) {
  if (!change.bounded) return "not measured";
  return fmt::format("{} [{}, {}]", percent(change.estimate), percent(change.lower),
                     percent(change.upper));
}

const char* answer_name(Answer answer) {
  switch (answer) {
    case Answer::kCommit:
      return "commit";
    case Answer::kRange:
      return "range";
    case Answer::kNoChange:
      return "no_change";
    case Answer::kUndecided:
      break;
  }
  return "undecided";
}

const char* outcome_name(StepOutcome outcome) {
  switch (outcome) {
    case StepOutcome::kChange:
      return "change";
    case StepOutcome::kNoChange:
      return "no_change";
    case StepOutcome::kLikeLower:
      return "like_good";
    case StepOutcome::kLikeUpper:
      return "like_bad";
    case StepOutcome::kBetween:
      return "between";
    case StepOutcome::kSkipped:
      return "skipped";
    case StepOutcome::kUndecided:
      break;
  }
  return "undecided";
}

/// What a step's outcome means, in words.
const char* outcome_words(StepOutcome outcome) {
  switch (outcome) {
    case StepOutcome::kChange:
      return "changed";
    case StepOutcome::kNoChange:
      return "no change";
    case StepOutcome::kLikeLower:
      return "like the good end";
    case StepOutcome::kLikeUpper:
      return "like the bad end";
    case StepOutcome::kBetween:
      return "like neither end";
    case StepOutcome::kSkipped:
      return "could not be measured";
    case StepOutcome::kUndecided:
      break;
  }
  return "undecided";
}

std::string link_of(const BisectFacts& facts, const std::string& sha) {
  return facts.commit_url.empty() ? "" : history::commit_link(facts.commit_url, sha);
}

Json commit_json(const BisectFacts& facts, std::size_t index) {
  const history::CommitInfo& info = facts.path.at(index);
  Json out = {{"sha", info.sha},
              {"summary", info.summary},
              {"author", info.author},
              {"url", facts.commit_url.empty() ? Json(nullptr) : Json(link_of(facts, info.sha))}};
  if (const auto merged = facts.merged.find(index); merged != facts.merged.end()) {
    out["merged"] = merged->second;
  }
  return out;
}

Json change_json(const Change& change) {
  if (!change.bounded) return nullptr;
  return {{"estimate", change.estimate}, {"lower", change.lower}, {"upper", change.upper}};
}

std::string commit_words(const BisectFacts& facts, std::size_t index) {
  const history::CommitInfo& info = facts.path.at(index);
  std::string text = fmt::format("`{}` \"{}\"", short_sha(info.sha), info.summary);
  if (!info.author.empty()) text += " by " + info.author;
  if (const std::string link = link_of(facts, info.sha); !link.empty()) {
    text += fmt::format(" ([commit]({}))", link);
  }
  if (const auto merged = facts.merged.find(index); merged != facts.merged.end()) {
    text += fmt::format(", a merge that brought in \"{}\"", merged->second);
  }
  return text;
}

std::string headline(const SearchResult& result, const BisectFacts& facts) {
  const std::string good = short_sha(facts.path.front().sha);
  const std::string bad = short_sha(facts.path.back().sha);
  switch (result.answer) {
    case Answer::kCommit:
      return fmt::format("`{}` changed {} by {}",
                         short_sha(facts.path[result.found[0].first_changed].sha), facts.metric,
                         percent(result.found[0].change.estimate));
    case Answer::kRange:
      return fmt::format("the change of {} between `{}` and `{}` is in more than one commit",
                         facts.metric, good, bad);
    case Answer::kNoChange:
      return fmt::format("no change between `{}` and `{}` (within {} of {})", good, bad,
                         threshold_text(facts.threshold), facts.metric);
    case Answer::kUndecided:
      break;
  }
  return fmt::format("could not decide where {} changed between `{}` and `{}`", facts.metric, good,
                     bad);
}

std::string duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<long>(std::lround(seconds));
  if (whole < 3600) return fmt::format("{} min {} s", whole / 60, whole % 60);
  return fmt::format("{} h {} min", whole / 3600, whole % 3600 / 60);
}

}  // namespace

int exit_status(const SearchResult& result) {
  switch (result.answer) {
    case Answer::kCommit:
    case Answer::kRange:
      return 0;
    case Answer::kNoChange:
      return 1;
    case Answer::kUndecided:
      break;
  }
  return 2;
}

std::string percent(double change) {
  const double value = change * 100;
  return std::abs(value) < 1 ? fmt::format("{:+.2f}%", value) : fmt::format("{:+.1f}%", value);
}

std::string step_line(const SearchStep& step, const BisectFacts& facts) {
  const std::string lower = short_sha(facts.path.at(step.lower).sha);
  const std::string upper = short_sha(facts.path.at(step.upper).sha);
  if (step.kind == StepKind::kCompare) {
    return fmt::format("compare {} -> {}: {} after {} rounds: {}", lower, upper,
                       outcome_words(step.outcome), step.rounds, interval_text(step.change));
  }
  return fmt::format(
      "test {} (commit {} of {}, between {} and {}): {} after {} rounds: {}",
      short_sha(facts.path.at(step.middle).sha), step.middle, facts.path.size() - 1, lower, upper,
      outcome_words(step.outcome), step.rounds,
      step.change.bounded ? interval_text(step.change) + " from their midpoint" : "not measured");
}

std::string markdown_report(const SearchResult& result, const BisectFacts& facts) {
  std::string out = "# perfgate bisect: " + headline(result, facts) + "\n\n";
  out += fmt::format(
      "Case `{}`, metric `{}`, threshold {}. Good `{}`, bad `{}`: {} commits on "
      "the first-parent path; the bad over the good: {}.\n\n",
      facts.case_name, facts.metric, threshold_text(facts.threshold),
      short_sha(facts.path.front().sha), short_sha(facts.path.back().sha), facts.path.size() - 1,
      interval_text(result.total));
  if (!result.found.empty()) {
    out += result.found.size() == 1 ? "## The commit\n\n" : "## The commits\n\n";
    for (const FoundCommit& found : result.found) {
      out += "- " + commit_words(facts, found.first_changed) + "\n";
      if (found.unresolved) {
        out += fmt::format(
            "  - the change lies after `{}`, up to this commit, and could not be narrowed down: "
            "no half of it showed a change of its own\n",
            short_sha(facts.path[found.last_unchanged].sha));
      } else {
        out += fmt::format(
            "  - {} against `{}`, the commit before it measured like the good end{}\n",
            interval_text(found.change), short_sha(facts.path[found.last_unchanged].sha),
            found.confirmed ? ""
                            : ": not beyond the threshold on its own, so the change "
                              "is spread over more commits than this one");
      }
      if (!found.skipped_between.empty()) {
        out +=
            "  - the change may also be in a commit between them that could not be "
            "measured:";
        for (const std::size_t index : found.skipped_between) {
          out += " `" + short_sha(facts.path[index].sha) + "`";
        }
        out += "\n";
      }
    }
    out += "\n";
  }
  out +=
      "## Steps\n\n| # | step | commits | rounds | result | change [interval] |\n"
      "|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < result.steps.size(); ++i) {
    const SearchStep& step = result.steps[i];
    const std::string lower = short_sha(facts.path[step.lower].sha);
    const std::string upper = short_sha(facts.path[step.upper].sha);
    const std::string commits =
        step.kind == StepKind::kCompare
            ? fmt::format("`{}` → `{}`", lower, upper)
            : fmt::format("`{}` between `{}` and `{}`", short_sha(facts.path[step.middle].sha),
                          lower, upper);
    std::string change = interval_text(step.change);
    if (step.kind == StepKind::kLocate && step.change.bounded) change += " from the ends' midpoint";
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", i + 1,
                       step.kind == StepKind::kCompare ? "compare" : "test", commits, step.rounds,
                       outcome_words(step.outcome), change);
  }
  if (!facts.failures.empty()) {
    out += "\n## Skipped commits\n\n";
    for (const auto& [index, reason] : facts.failures) {
      out += fmt::format("- `{}` \"{}\": {}\n", short_sha(facts.path[index].sha),
                         facts.path[index].summary, reason);
    }
  }
  std::size_t between = 0;
  for (const std::size_t index : result.measured) {
    between += index != 0 && index + 1 != facts.path.size();
  }
  out += fmt::format("\nTime: {}; {} runs, {} commits measured besides the two ends",
                     duration(facts.seconds), result.runs, between);
  if (facts.replayed > 0) {
    out += fmt::format(" ({} runs taken from the interrupted bisection's log)", facts.replayed);
  }
  out += fmt::format("; {} commits built", facts.built);
  out += ".\n";
  if (facts.from_archive > 0) {
    out += fmt::format(
        "\n{} of the runs were taken from {} earlier attempts in the archive, measured on this "
        "machine in this setup (`archive_attempts` of `--json` names them); `--fresh` measures "
        "every run now.\n",
        facts.from_archive, facts.archive_attempts.size());
  }
  return out;
}

Json json_report(const SearchResult& result, const BisectFacts& facts) {
  Json found = Json::array();
  for (const FoundCommit& commit : result.found) {
    Json entry = commit_json(facts, commit.first_changed);
    entry["before"] = commit_json(facts, commit.last_unchanged);
    entry["change"] = change_json(commit.change);
    entry["confirmed"] = commit.confirmed;
    entry["unresolved"] = commit.unresolved;
    Json skipped = Json::array();
    for (const std::size_t index : commit.skipped_between) skipped.push_back(facts.path[index].sha);
    entry["skipped_between"] = skipped;
    found.push_back(entry);
  }
  Json steps = Json::array();
  for (const SearchStep& step : result.steps) {
    Json entry = {{"kind", step.kind == StepKind::kCompare ? "compare" : "test"},
                  {"lower", facts.path[step.lower].sha},
                  {"upper", facts.path[step.upper].sha},
                  {"outcome", outcome_name(step.outcome)},
                  {"rounds", step.rounds},
                  {"change", change_json(step.change)}};
    if (step.kind == StepKind::kLocate) entry["commit"] = facts.path[step.middle].sha;
    steps.push_back(entry);
  }
  Json skipped = Json::array();
  for (const auto& [index, reason] : facts.failures) {
    skipped.push_back({{"sha", facts.path[index].sha}, {"reason", reason}});
  }
  std::size_t between = 0;
  for (const std::size_t index : result.measured) {
    between += index != 0 && index + 1 != facts.path.size();
  }
  return {{"answer", answer_name(result.answer)},
          {"good", commit_json(facts, 0)},
          {"bad", commit_json(facts, facts.path.size() - 1)},
          {"commits", facts.path.size() - 1},
          {"case", facts.case_name},
          {"metric", facts.metric},
          {"threshold", facts.threshold},
          {"change", change_json(result.total)},
          {"found", found},
          {"steps", steps},
          {"skipped", skipped},
          {"runs", result.runs},
          {"commits_measured", between},
          {"replayed_runs", facts.replayed},
          {"archive_runs", facts.from_archive},
          {"archive_attempts", facts.archive_attempts},
          {"commits_built", facts.built},
          {"seconds", facts.seconds}};
}

}  // namespace perfgate::bisect
