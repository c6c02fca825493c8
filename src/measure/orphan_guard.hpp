#pragma once
// When perfgate starts runs itself (no perfgate-spawner), nothing outside perfgate would
// end a run if perfgate were SIGKILLed: the measured tree would keep running. The guard is
// a small child process forked once, that knows the run in progress and, when perfgate
// dies, sees its pipe close and kills that run's process group. perfgate-spawner does the
// same for the runs it starts.
#include <sys/types.h>

#include "measure/file_descriptor.hpp"

namespace perfgate {

class OrphanGuard {
 public:
  /// Forks the guard; active() is false when that fails (the runs go unguarded).
  OrphanGuard();
  OrphanGuard(const OrphanGuard&) = delete;
  OrphanGuard& operator=(const OrphanGuard&) = delete;
  /// Closes the pipe: the guard, with no run to kill, exits; it is reaped here.
  ~OrphanGuard();

  bool active() const { return pid_ > 0; }
  /// The guard's pid, a child of this process that is not any run's.
  pid_t pid() const { return pid_; }
  /// The run whose process group to kill should perfgate die now; 0 for none.
  void watch(pid_t group);

 private:
  pid_t pid_ = -1;
  FileDescriptor pipe_;  ///< write end; the guard reads group ids from the other
};

}  // namespace perfgate
