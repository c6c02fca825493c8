#!/usr/bin/env python3
"""What the probe's report at exit costs in wall time with a busy loop on each core, beside
controls (docs/probe.md, "The busy wall figure is the probe's, and why"). Not part of make
bench: a study, run by hand.

Each round starts a new busy loop per core (where the kernel places them decides whether
runs wait for a CPU), then runs each pair of programs in alternating order (A B, B A, ...)
and prints the mean of the paired wall differences B - A with its 95% interval, the median
paired CPU difference, and how many of A's runs waited (wall over CPU by more than 1 ms):

  probe      probe_exit_compiled_out against probe_exit (the report written)
  floor      probe_exit_compiled_out against probe_exit_floor (a ready report, same calls)
  clock x3   a small C program against itself reading CLOCK_PROCESS_CPUTIME_ID three times
             at its end (compiled here with cc)
  A/A        probe_exit_compiled_out against itself

Usage: probe_under_load.py BUILD [ROUNDS] [PAIRS]
"""
import atexit
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
pairs_per_round = int(sys.argv[3]) if len(sys.argv) > 3 else 120
bench = os.path.join(build, "bench")
work = tempfile.mkdtemp(prefix="probe-under-load-")
atexit.register(shutil.rmtree, work, True)

CLOCK_PROGRAM = r"""
#include <time.h>
int main(void) {
  volatile unsigned long x = 1;
  for (unsigned long i = 0; i < 550000UL; ++i) x = x * 6364136223846793005UL + 1;
#ifdef CLOCKS
  struct timespec t;
  for (int i = 0; i < CLOCKS; ++i) clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
#endif
  return 0;
}
"""
source = os.path.join(work, "clock.c")
with open(source, "w") as f:
    f.write(CLOCK_PROGRAM)
subprocess.run(["cc", "-O1", "-o", f"{work}/no_clock", source], check=True)
subprocess.run(["cc", "-O1", "-DCLOCKS=3", "-o", f"{work}/clock", source], check=True)

env = dict(os.environ, PERFGATE_PROBE_OUT=f"{work}/report.json")
out = f"{bench}/probe_exit_compiled_out"
pairs = {
    "probe": (out, f"{bench}/probe_exit"),
    "floor": (out, f"{bench}/probe_exit_floor"),
    "clock x3": (f"{work}/no_clock", f"{work}/clock"),
    "A/A": (out, out),
}


def run(program):
    start = time.perf_counter()
    pid = os.posix_spawn(program, [program], env)
    usage = os.wait4(pid, 0)[2]
    return (time.perf_counter() - start) * 1e3, (usage.ru_utime + usage.ru_stime) * 1e3


for number in range(1, rounds + 1):
    hogs = [subprocess.Popen([f"{bench}/busy_loop", "600000"]) for _ in range(os.cpu_count())]
    try:
        time.sleep(0.3)
        seen = {name: ([], [], 0) for name in pairs}
        for i in range(pairs_per_round):
            for name, (a_program, b_program) in pairs.items():
                if i % 2:
                    b, a = run(b_program), run(a_program)
                else:
                    a, b = run(a_program), run(b_program)
                walls, cpus, waited = seen[name]
                walls.append(b[0] - a[0])
                cpus.append(b[1] - a[1])
                seen[name] = (walls, cpus, waited + (a[0] - a[1] > 1.0))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    parts = []
    for name, (walls, cpus, waited) in seen.items():
        half = 1.96 * statistics.stdev(walls) / math.sqrt(len(walls))
        parts.append(f"{name}: {statistics.mean(walls):+.2f}±{half:.2f} ms wall, "
                     f"{statistics.median(cpus):+.2f} CPU, A waited {waited}/{len(walls)}")
    print(f"round {number}: " + " | ".join(parts), flush=True)
    time.sleep(1)
