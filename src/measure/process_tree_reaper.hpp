#pragma once
// Ending a run that perfgate started itself: kill what is left of its process group and reap
// all of it, adding up what the kernel reports for each process reaped. perfgate-spawner
// (src/spawner/) does the same for the runs it starts.
#include <sys/resource.h>
#include <sys/types.h>

#include <optional>
#include <vector>

namespace perfgate {

/// CPU time and the largest single-process resident set of everything reaped for one run.
struct TreeUsage {
  double user_s = 0;
  double system_s = 0;
  long max_rss_kib = 0;

  void add(const rusage& usage);
  /// What perfgate-spawner reports for the processes it reaped.
  void add_microseconds(long user_us, long system_us, long max_rss);
};

/// Whether the child `leader` has exited, leaving it a zombie so that its pid (and so the
/// process group id) stays reserved until it is reaped.
bool leader_exited(pid_t leader);

/// Kills what is left of the run's process group and reaps all of it, the zombie leader
/// last; returns the leader's wait status. Members that are not yet our children (their
/// parents are dying) become ours as orphans when we are a child subreaper.
int kill_and_reap_group(pid_t leader, TreeUsage& usage);

/// This process's children, every thread's (/proc/self/task/*/children); nullopt when the
/// kernel does not list children (CONFIG_PROC_CHILDREN).
std::optional<std::vector<pid_t>> children_of_this_process();

/// Kills and reaps the children not in `before`: a run's processes that left its process
/// group (a daemon that double-forked) and outlived it came back to this subreaper. Their
/// own children come back as they die, so it looks again until none is new (for at most a
/// second). Returns how many were alive; nullopt when children cannot be listed.
std::optional<int> kill_escapees(const std::vector<pid_t>& before);

}  // namespace perfgate
