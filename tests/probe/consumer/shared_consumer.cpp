// Links the shared variant of the probe, perfgate::probe_shared, and calls every function of
// its C++ and C APIs: the library exports only what src/probe/exports.map names, so a name
// the headers need and the map misses fails this link.
#include <perfgate/probe.h>

#include <perfgate/probe.hpp>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  namespace probe = perfgate::probe;
  probe::set_enabled(probe::enabled());
  probe::set_trace(false);
  probe::set_cpu_time(false);
  probe::set_thread_name("main");
  probe::set_warmup_runs(0);
  {
    probe::Run run;
    PERFGATE_REGION("shared_region");
    const probe::NamedRegion named{std::string("named_") + std::to_string(argc)};
    const probe::RunContext context = probe::RunContext::current();
    std::thread worker([&context] {
      const probe::AttachedRun attached(context);
      PERFGATE_REGION("shared_region_worker");
    });
    worker.join();
  }
  perfgate_probe_set_enabled(1);
  perfgate_probe_set_trace(0);
  perfgate_probe_run_begin();
  perfgate_probe_region_begin("shared_region_c");
  perfgate_probe_region_end();
  perfgate_probe_region_begin_at("shared_region_c_at", __FILE__, __LINE__, "main");
  perfgate_probe_region_end();
  perfgate_probe_run_end();
  // A flush to an argument's path, when one is given, exercises both flushes.
  if (argc > 1) return probe::flush(argv[1]) && perfgate_probe_flush(argv[1]) == 1 ? 0 : 1;
  return 0;
}
