#include "cli/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <string_view>
#include <vector>

#include "config/key_suggestion.hpp"

namespace perfgate {
namespace {

/// "perfgate run", "perfgate baseline prepare": the command as the user types it.
std::string command_path(const CLI::App& app) {
  if (app.get_parent() == nullptr) return "perfgate";
  return command_path(*app.get_parent()) + " " + app.get_name();
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

/// The command whose flags were being read when parsing stopped: the deepest one parsed.
const CLI::App& deepest_parsed(const CLI::App& app) {
  const CLI::App* current = &app;
  for (;;) {
    const auto parsed = current->get_subcommands();
    if (parsed.empty()) return *current;
    current = parsed.front();
  }
}

std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

const CLI::Option* find_flag(const CLI::App& app, const std::string& name) {
  for (const CLI::Option* option : app.get_options())
    if (option->check_name(name)) return option;
  return nullptr;
}

/// The words of a flag or command: "--results-dir" is {"dir", "results"}, sorted.
std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : name.substr(std::min(name.find_first_not_of('-'), name.size()))) {
    if (c == '-' || c == '_') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  std::sort(words.begin(), words.end());
  return words;
}

/// A long flag typed with its words in another order ("--dir-results"), or with words of
/// its own added ("--upload-policy" for "--upload"): the one known flag whose words were all
/// typed, the one with the most of them when several were.
std::optional<std::string> same_words(std::string_view typed,
                                      const std::vector<std::string>& known) {
  if (!typed.starts_with("--")) return std::nullopt;
  const std::vector<std::string> words = words_of(typed);
  std::optional<std::string> best;
  std::size_t best_words = 0;
  bool tied = false;
  for (const std::string& candidate : known) {
    if (!candidate.starts_with("--")) continue;
    const std::vector<std::string> of_candidate = words_of(candidate);
    if (of_candidate.empty() ||
        !std::includes(words.begin(), words.end(), of_candidate.begin(), of_candidate.end())) {
      continue;
    }
    if (of_candidate.size() > best_words) {
      best = candidate;
      best_words = of_candidate.size();
      tied = false;
    } else if (of_candidate.size() == best_words) {
      tied = true;
    }
  }
  return tied ? std::nullopt : best;
}

/// The known word the user most likely meant: the nearest by edit distance (not for a
/// one-letter flag: "-o" is one edit from "-h" and from every other), else a flag of the
/// same words, else the one word that starts with what was typed ("prep" for "prepare").
/// `-o`, `--output` and `--out` mean where the command writes, whichever name it gives it.
std::optional<std::string> suggestion(std::string_view typed,
                                      const std::vector<std::string>& known) {
  const bool one_letter = typed.size() == 2 && typed[0] == '-' && typed[1] != '-';
  const auto knows = [&](std::string_view name) {
    return std::find(known.begin(), known.end(), name) != known.end();
  };
  if (typed == "-o" || typed == "--output" || typed == "--out" || typed == "--output-dir") {
    for (const char* output : {"--output", "--out", "--results-dir"}) {
      if (typed != output && knows(output)) return std::string(output);
    }
  }
  if (!one_letter) {
    if (auto near = nearest_key(typed, known)) return near;
    if (auto reordered = same_words(typed, known)) return reordered;
  }
  std::optional<std::string> only;
  const std::size_t dashes = typed.find_first_not_of('-');
  if (dashes == std::string_view::npos || typed.size() - dashes < 2) return std::nullopt;
  for (const std::string& word : known) {
    if (word.rfind(typed, 0) != 0) continue;
    if (only) return std::nullopt;
    only = word;
  }
  return only;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
  const auto near = suggestion(typed, known);
  return near ? fmt::format("; did you mean '{}'?", *near) : std::string();
}

std::string help_pointer(const CLI::App& app) {
  if (app.get_parent() == nullptr) return "\nRun 'perfgate --help' for the commands.";
  return fmt::format("\nRun '{} --help' for its flags and examples.", command_path(app));
}

std::string unexpected_arguments(const CLI::App& app) {
  const std::string command = command_path(app);
  std::vector<std::string> parts;
  for (const std::string& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      const std::string flag = extra.substr(0, extra.find('='));
      parts.push_back(fmt::format("unknown flag '{}' for '{}'{}", flag, command,
                                  did_you_mean(flag, flag_names(app))));
    } else {
      parts.push_back(fmt::format("'{}' is not an argument of '{}'", extra, command));
    }
  }
  if (parts.empty()) return fmt::format("unexpected arguments for '{}'", command);
  return fmt::format("{}", fmt::join(parts, "\nperfgate: error: "));
}

std::string type_words(const std::string& type_name) {
  if (type_name.rfind("INT", 0) == 0) return "a whole number";
  if (type_name.rfind("UINT", 0) == 0) return "a whole number, 0 or more";
  if (type_name.rfind("FLOAT", 0) == 0) return "a number";
  return "a valid value";
}

/// CLI11's sentences rephrased subject first, the way perfgate's own errors read.
std::string rephrase(const CLI::App& app, const std::string& message) {
  static const std::regex not_in(R"(^(\S+): (.*) not in \{(.*)\}$)");
  static const std::regex value_missing(R"(^(\S+): \d+ required (\S+) missing$)");
  static const std::regex not_converted(R"(^Could not convert: (\S+) = (.*)$)");
  std::smatch match;
  if (std::regex_match(message, match, not_in)) {
    std::vector<std::string> allowed;
    const std::string list = match[3].str();
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t comma = list.find(',', start);
      allowed.push_back(list.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return fmt::format("{}: '{}' is not one of {}{}", match[1].str(), match[2].str(),
                       fmt::join(allowed, ", "), did_you_mean(match[2].str(), allowed));
  }
  if (std::regex_match(message, match, value_missing))
    return fmt::format("{} needs a value ({})", match[1].str(), match[2].str());
  if (std::regex_match(message, match, not_converted)) {
    const CLI::Option* option = find_flag(app, match[1].str());
    return fmt::format("{}: '{}' is not {}", match[1].str(), match[2].str(),
                       type_words(option != nullptr ? option->get_type_name() : ""));
  }
  if (message == "A subcommand is required")
    return fmt::format("'{}' needs a command: {}", command_path(app),
                       fmt::join(subcommand_names(app), ", "));
  return message;
}

}  // namespace

std::optional<std::string> unknown_command_error(const CLI::App& app, int argc,
                                                 const char* const* argv) {
  const CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word.empty() || word[0] == '-') {
      // Only --help and --version come before the first command word, and a command's
      // flags end the search: its positionals are not command words.
      if (current != &app || word == "--") return std::nullopt;
      continue;
    }
    const auto names = subcommand_names(*current);
    if (names.empty()) return std::nullopt;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : current->get_subcommands([](const CLI::App*) { return true; }))
      if (sub->check_name(std::string(word))) next = sub;
    if (next == nullptr) {
      const std::string where =
          current == &app ? std::string() : fmt::format(" for '{}'", command_path(*current));
      const auto near = suggestion(word, names);
      return fmt::format("unknown command '{}'{}; {}{}", word, where,
                         near ? fmt::format("did you mean '{}'?", *near)
                              : fmt::format("the commands are {}", fmt::join(names, ", ")),
                         help_pointer(*current));
    }
    current = next;
  }
  return std::nullopt;
}

std::string describe_usage_error(const CLI::App& app, const CLI::ParseError& error) {
  const CLI::App& command = deepest_parsed(app);
  const std::string what = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr
                               ? unexpected_arguments(command)
                               : rephrase(command, error.what());
  return what + help_pointer(command);
}

}  // namespace perfgate
