// [history]: validated as strictly as every other table, before anything is planned.
#include "config/history_config.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include <string_view>

#include "config/link_setting.hpp"

namespace perfgate {
namespace {

/// A path inside the copy of a commit: relative, without "..", so a config cannot make
/// perfgate read or run something outside what the commit holds.
std::string relative_path(const ConfigValue& value) {
  const std::string path = value.non_empty_string();
  if (path.front() == '/' || path == ".." || path.rfind("../", 0) == 0 ||
      path.find("/../") != std::string::npos ||
      (path.size() >= 3 && path.compare(path.size() - 3, 3, "/..") == 0)) {
    throw value.error("'" + path + "' leaves the repository",
                      "Give a path relative to the repository root, such as \"benchmarks/\"");
  }
  return path;
}

void check_archive(const ConfigValue& value, const std::string& archive) {
  const auto colon = archive.find(':');
  const std::string_view scheme =
      colon == std::string::npos ? std::string_view() : std::string_view(archive).substr(0, colon);
  if ((scheme == "git" || scheme == "dir") && colon + 1 < archive.size()) return;
  throw value.error("'" + archive + "' is not an archive URL",
                    "Use \"git:BRANCH\" (a branch of this repository, e.g. \"git:perfgate-data\") "
                    "or \"dir:PATH\"");
}

/// A number in [low, high], or in (low, high] when `low_excluded`; the error names both.
double number_in_range(const ConfigValue& value, double low, bool low_excluded, double high,
                       std::string_view fix) {
  const double number = value.finite_number();
  if (number < low || (low_excluded && number == low) || number > high) {
    throw value.error(fmt::format("{} is out of range: it must be {} {} and at most {}", number,
                                  low_excluded ? "above" : "at least", low, high),
                      fix);
  }
  return number;
}

RegressionFlagRule read_flags(const ConfigValue& value) {
  RegressionFlagRule rule;
  ErrorList errors;
  const ConfigTable table(value, {"percent", "absolute_ms", "mad_factor"}, errors);
  errors.check([&] {
    if (auto v = table.get("percent"))
      rule.percent = number_in_range(*v, 0, true, 1000, "A rise in percent: 10 means 10%");
  });
  errors.check([&] {
    if (auto v = table.get("absolute_ms"))
      rule.absolute_ms = number_in_range(*v, 0, false, 3.6e6, "Milliseconds: 0.1 means 100 µs");
  });
  errors.check([&] {
    if (auto v = table.get("mad_factor"))
      rule.mad_factor =
          number_in_range(*v, 0, false, 1000, "A multiple of the two MADs, 3 by default");
  });
  errors.throw_if_any();
  return rule;
}

}  // namespace

HistoryConfig read_history_config(const ConfigValue& value) {
  HistoryConfig config;
  ErrorList errors;
  const ConfigTable table(
      value,
      {"branch", "archive", "build", "suite", "sources", "harness_version", "max_per_run",
       "interleave", "timeout_s", "flags", "commit_url", "raw_url", "remote", "suite_from"},
      errors);
  errors.check([&] {
    if (auto v = table.get("branch")) config.branch = v->non_empty_string();
  });
  errors.check([&] {
    if (auto v = table.get("archive")) {
      config.archive = v->non_empty_string();
      check_archive(*v, config.archive);
    }
  });
  errors.check([&] {
    if (auto v = table.get("build")) {
      for (const ConfigValue& item : v->items()) config.build.push_back(item.non_empty_string());
    }
  });
  errors.check([&] {
    if (auto v = table.get("suite")) config.suite = relative_path(*v);
  });
  errors.check([&] {
    if (auto v = table.get("sources")) {
      for (const ConfigValue& item : v->items()) config.sources.push_back(relative_path(item));
      if (config.sources.empty()) {
        throw v->error("must list at least one path",
                       "List the folders that hold the benchmarks' own code, e.g. "
                       "[\"benchmarks/\"]");
      }
    }
  });
  errors.check([&] {
    if (auto v = table.get("harness_version")) config.harness_version = v->int_between(1, 1000000);
  });
  errors.check([&] {
    if (auto v = table.get("max_per_run")) config.max_per_run = v->int_between(1, 1000);
  });
  errors.check([&] {
    if (auto v = table.get("interleave")) config.interleave = v->int_between(1, 1000);
  });
  errors.check([&] {
    if (auto v = table.get("timeout_s")) config.timeout_s = v->positive_number();
  });
  errors.check([&] {
    if (auto v = table.get("flags")) config.flags = read_flags(*v);
  });
  errors.check([&] {
    if (auto v = table.get("commit_url")) config.commit_url = commit_url_setting(*v);
  });
  errors.check([&] {
    if (auto v = table.get("suite_from")) {
      config.suite_from = v->non_empty_string();
      if (config.suite_from != "commit" && config.suite_from != "harness") {
        throw v->error("'" + config.suite_from + "' is neither \"commit\" nor \"harness\"",
                       "\"commit\" measures each commit's own suite; \"harness\" lays this "
                       "checkout's suite and sources into every measured copy");
      }
    }
  });
  errors.check([&] {
    if (auto v = table.get("remote")) {
      config.remote = v->non_empty_string();
      const bool name =
          config.remote.size() <= 100 && config.remote.front() != '-' &&
          std::all_of(config.remote.begin(), config.remote.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
          });
      if (!name) {
        throw v->error("'" + config.remote + "' is not the name of a git remote",
                       "Name a remote of the repository, e.g. \"origin\" (git remote -v lists "
                       "them)");
      }
    }
  });
  errors.check([&] {
    if (auto v = table.get("raw_url")) {
      config.raw_url = link_setting(*v, true,
                                    "Give where the archive's files are published, e.g. "
                                    "\"https://github.com/org/repo/tree/perfgate-data/\", or "
                                    "\"./archive/\" beside the site");
    }
  });
  errors.throw_if_any();
  if (config.sources.empty()) config.sources = {config.suite};
  return config;
}

}  // namespace perfgate
