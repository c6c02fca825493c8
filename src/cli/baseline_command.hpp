#pragma once
// `perfgate baseline prepare` and `perfgate baseline approve`: reviewed seeding of the
// first baseline of a new cohort, or a re-seed of a cohort whose baseline legitimately
// moved.
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct BaselineOptions {
  std::string store;
  std::string project;
  std::string benchmark;             ///< prepare: glob over benchmark_id
  std::string cohort;                ///< prepare: one exact cohort, as prepare prints it
  std::string since;                 ///< prepare: time window
  std::string output;                ///< prepare: manifest path
  bool force = false;                ///< prepare: replace an existing manifest file
  bool reseed = false;               ///< prepare: re-seed instead of calibrate
  bool allow_mixed_commits = false;  ///< prepare: a cohort may span commits or builds
  std::string manifest;              ///< approve: manifest path
};

/// Adds `baseline` with its two subcommands; returns {prepare, approve}.
std::pair<CLI::App*, CLI::App*> add_baseline_command(CLI::App& app, BaselineOptions& options);
int execute_baseline_prepare(const BaselineOptions& options);
int execute_baseline_approve(const BaselineOptions& options);

}  // namespace perfgate
