/* Uses perfgate-probe through its C header: two runs of two regions, one nested, then an
 * explicit flush to the path given as the first argument. */
#include <stdio.h>
#include <time.h>

#include "perfgate/probe.h"

static void spin_for_ms(long ms) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L < ms);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s REPORT.json\n", argv[0]);
    return 2;
  }
  for (int i = 0; i < 2; ++i) {
    perfgate_probe_run_begin();
    PERFGATE_PROBE_REGION_BEGIN("parse");
    spin_for_ms(2);
    perfgate_probe_region_begin("tokens");
    spin_for_ms(1);
    perfgate_probe_region_end();
    perfgate_probe_region_end();
    spin_for_ms(1);
    perfgate_probe_run_end();
  }
  return perfgate_probe_flush(argv[1]) ? 0 : 1;
}
