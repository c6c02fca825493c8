/* The messages between perfgate and perfgate-spawner over their socketpair (SOCK_STREAM,
 * one process at each end, same machine and build, so native byte order and layout).
 * Shared by the C spawner and the C++ client so that both read the same bytes. */
#ifndef PERFGATE_SPAWNER_PROTOCOL_H
#define PERFGATE_SPAWNER_PROTOCOL_H

#include <stdint.h>

/* The spawner finds its socket here (perfgate dup2s its end onto this descriptor). */
#define PERFGATE_SPAWNER_FD 3

/* Bumped whenever a message changes; the spawner refuses a request of another version, so a
 * perfgate and a spawner from two builds never misread each other. */
#define PERFGATE_SPAWNER_PROTOCOL_VERSION 2u

enum perfgate_spawner_request_type {
  /* Start a run: followed by payload_bytes of NUL-terminated strings, in order: the working
   * directory (when PERFGATE_SPAWN_HAS_CWD), argc arguments, envc environment entries (when
   * PERFGATE_SPAWN_HAS_ENV; otherwise the child inherits the spawner's environment). With
   * PERFGATE_SPAWN_CAPTURE_OUTPUT the message carries one descriptor (SCM_RIGHTS), the write
   * end of the output pipe, which becomes the child's stdout and stderr. */
  PERFGATE_SPAWNER_RUN = 1,
  /* Kill the process group of the run in progress (its timeout passed). Ignored when no run
   * is in progress: the run may have ended while the request was on its way. */
  PERFGATE_SPAWNER_KILL = 2
};

enum {
  PERFGATE_SPAWN_CAPTURE_OUTPUT = 1u << 0,
  PERFGATE_SPAWN_HAS_CWD = 1u << 1,
  PERFGATE_SPAWN_HAS_ENV = 1u << 2,
  /* After the run, kill the processes it left behind outside its process group (daemons
   * that double-forked): children of the spawner that were not there before the run. */
  PERFGATE_SPAWN_KILL_ESCAPEES = 1u << 3
};

struct perfgate_spawner_request {
  uint32_t version;
  uint32_t type;
  uint32_t flags;
  uint32_t argc;
  uint32_t envc;
  uint32_t reserved;
  uint64_t payload_bytes;
};

enum perfgate_spawner_reply_type {
  /* The run started (pid > 0, also its process group id) or could not (pid == -1, error is
   * the errno posix_spawn gave). */
  PERFGATE_SPAWNER_STARTED = 1,
  /* The leader exited, what was left of its group was killed and everything was reaped. */
  PERFGATE_SPAWNER_FINISHED = 2
};

struct perfgate_spawner_reply {
  uint32_t type;
  int32_t pid;
  int32_t error;
  int32_t status;      /* FINISHED: the leader's wait status */
  int32_t killed;      /* FINISHED: 1 when a KILL request ended the run before the leader exited */
  int32_t escaped;     /* FINISHED: processes killed under PERFGATE_SPAWN_KILL_ESCAPEES; -1 when
                        * the kernel does not list a process's children (they were not looked for) */
  int64_t user_us;     /* FINISHED: user CPU of everything reaped for the run */
  int64_t system_us;   /* FINISHED: system CPU of everything reaped for the run */
  int64_t max_rss_kib; /* FINISHED: the largest ru_maxrss of everything reaped */
  int64_t wall_ns;     /* FINISHED: from just before the spawn to the leader's exit */
};

#endif
