#include <perfgate/probe.h>

int main(void) {
  perfgate_probe_run_begin();
  PERFGATE_PROBE_REGION_BEGIN("c_consumer_region");
  perfgate_probe_region_end();
  perfgate_probe_run_end();
  return 0;
}
