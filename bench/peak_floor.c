/* The reference for peak memory: runs PROGRAM N times with posix_spawn from this static C
 * program, whose own resident set is tiny, and prints the largest ru_maxrss of the runs in
 * MiB. A child shares its parent's memory until exec and the kernel counts the parent's
 * high-water mark in the child's ru_maxrss, so this is as close to the program's own peak
 * as any harness reads. Usage: peak_floor N PROGRAM [ARGS...] */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peak_floor N PROGRAM [ARGS...]\n");
    return 64;
  }
  const long runs = atol(argv[1]);
  long largest_kib = 0;
  for (long i = 0; i < runs; ++i) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ) != 0) return 1;
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 1;
    if (usage.ru_maxrss > largest_kib) largest_kib = usage.ru_maxrss;
  }
  printf("%.3f\n", (double)largest_kib / 1024.0);
  return 0;
}
