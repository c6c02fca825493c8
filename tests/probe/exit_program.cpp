// Leaves the probe in every untidy state a report written at exit must describe: a thread
// that ended (its run must be in the report), a thread still running with data only it can
// hand over, an idle thread that holds nothing (no warning for it), a region called outside
// any run, and a run and a region still open when exit() is called.

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include "perfgate/probe.hpp"

int main() {
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
