#pragma once
// The children a process's threads list in /proc (/proc/<pid>/task/<tid>/children, Linux
// 3.5+ with CONFIG_PROC_CHILDREN): how perfgate finds what is below it, the escapees of a run
// to kill (process_tree_reaper.hpp) and the processes whose memory a sample counts
// (process_group_sampler.hpp).
#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

/// Appends to `out` the children of process `pid`, a /proc entry under `proc_root` (its
/// digits, or "self" with `every_thread`): those its main thread lists, or those of every
/// thread when `every_thread` (a child is listed under the thread that created it or, for a
/// child subreaper, inherited it). false when no thread's list could be read.
bool append_proc_children(const std::string& proc_root, std::string_view pid, bool every_thread,
                          std::vector<pid_t>& out);

/// A /proc entry that names a process or thread: digits only.
bool is_pid_name(const char* name);

}  // namespace perfgate
