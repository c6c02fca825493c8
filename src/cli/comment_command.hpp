#pragma once
// `perfgate comment --provider github|gitlab --report report.md`: the one pull-request (or
// merge-request) comment that holds a report, posted the first time and edited in place
// after (docs/ci.md).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace perfgate {

struct CommentOptions {
  std::string provider;
  std::string report;
  std::string key = "perfgate";
  std::optional<long long> pr;
  long long max_wait = 60;
  bool dry_run = false;
};

CLI::App* add_comment_command(CLI::App& app, CommentOptions& options);
int execute_comment(const CommentOptions& options);

}  // namespace perfgate
