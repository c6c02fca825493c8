// Leaves the probe in every untidy state a report written at exit must describe: a thread
// that ended (its run must be in the report), a thread still running with data only it can
// hand over, an idle thread that holds nothing (no warning for it), a region called outside
// any run, and a run and a region still open when exit() is called. With `exit-handlers`,
// runs that end in exit()'s own handlers instead.

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "perfgate/probe.hpp"

namespace {

bool g_exit_handlers = false;  // the `exit-handlers` mode

/// Enters a run and a region as it is destroyed at exit, in the `exit-handlers` mode. At
/// namespace scope, so it is made while the program starts, before the probe is: its
/// destructor is registered first and runs last among exit()'s handlers.
struct RunAtExit {
  RunAtExit() = default;
  RunAtExit(const RunAtExit&) = delete;
  RunAtExit& operator=(const RunAtExit&) = delete;
  ~RunAtExit() {
    if (!g_exit_handlers) return;
    perfgate::probe::Run run;
    PERFGATE_REGION("in_static_destructor");
  }
};
RunAtExit g_run_at_exit;

void run_in_atexit_handler() {
  perfgate::probe::Run run;
  PERFGATE_REGION("in_atexit_handler");
}

/// `exit-handlers`: runs in main, in an atexit handler and in a static object's destructor,
/// all of which end before the report is written.
int exit_handlers() {
  g_exit_handlers = true;
  std::atexit(run_in_atexit_handler);
  perfgate::probe::Run run;
  PERFGATE_REGION("in_main");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "exit-handlers") return exit_handlers();
  std::thread([] {
    perfgate::probe::Run run;
    PERFGATE_REGION("finished_thread_work");
  }).join();

  std::promise<void> started;
  std::thread([&started] {
    perfgate::probe::set_thread_name("sleeper");
    {
      perfgate::probe::Run run;
      PERFGATE_REGION("sleeper_work");
    }
    { PERFGATE_REGION("sleeper_after_run"); }  // outside a run: only this thread holds it
    started.set_value();
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }).detach();
  started.get_future().wait();

  // A pool thread waiting for work: it used the probe, holds nothing, and earns no warning.
  std::promise<void> idle;
  std::thread([&idle] {
    perfgate::probe::set_thread_name("idle");
    idle.set_value();
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }).detach();
  idle.get_future().wait();

  { PERFGATE_REGION("setup"); }
  perfgate::probe::Run run;
  PERFGATE_REGION("frame");
  std::exit(0);  // leaves `run` and `frame` open: exit() does not unwind this scope
}
