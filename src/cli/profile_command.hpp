#pragma once
// `perfgate profile FILE...`: a probe report (PERFGATE_PROBE_OUT) as Markdown or JSON,
// several reports merged into one, and the trace exported for Perfetto.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct ProfileOptions {
  std::vector<std::string> files;
  std::string format = "md";
  bool merge = false;
  std::string trace;   ///< Chrome trace destination; empty: none
  std::string output;  ///< where the view goes; empty: stdout
  bool force = false;  ///< --force: replace existing --output and --trace files
};

CLI::App* add_profile_command(CLI::App& app, ProfileOptions& options);
int execute_profile(const ProfileOptions& options);

}  // namespace perfgate
