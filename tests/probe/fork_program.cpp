// A program that forks inside a run: the child records a run of its own and exits
// normally (so its report is written at exit); the parent waits for it, records another
// run and exits. Each process's report must hold its own runs only.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "perfgate/probe.hpp"

int main() {
  {
    perfgate::probe::Run run;
    PERFGATE_REGION("before_fork");
  }
  pid_t child = 0;
  {
    perfgate::probe::Run run;  // open across the fork: the parent's to record
    PERFGATE_REGION("forking");
    child = fork();
    if (child < 0) return 2;
  }
  if (child == 0) {
    {
      perfgate::probe::Run run;
      PERFGATE_REGION("child_work");
    }
    std::exit(0);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return 3;
  }
  perfgate::probe::Run run;
  PERFGATE_REGION("parent_work");
  return 0;
}
