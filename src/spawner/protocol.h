/* The messages between perfgate and perfgate-spawner over their two socketpairs (SOCK_STREAM,
 * one process at each end, same machine and build, so native byte order and layout).
 * Shared by the C spawner and the C++ client so that both read the same bytes.
 *
 * Two sockets, so that perfgate can queue the next runs while one is in progress and is woken
 * at most once per run:
 * - the request socket (PERFGATE_SPAWNER_FD): perfgate sends RUN requests; the spawner reads
 *   one only when it is ready to start it, and answers each with one FINISHED or SKIPPED
 *   reply, in order. perfgate waits on this socket.
 * - the control socket (PERFGATE_SPAWNER_CONTROL_FD, SOCK_SEQPACKET: each message whole or
 *   not at all): perfgate sends KILL; the spawner reads
 *   it while a run is in progress and before starting one. The spawner sends STARTED here,
 *   with the pid of a run once it has lasted as long as the request says; nobody waits for it (a
 * wake-up of perfgate per run costs as much as a spawn on a virtual machine), perfgate reads it
 * when it needs the pid. Either socket closing means perfgate is gone: the run in progress is
 * killed and reaped, and the spawner exits. */
#ifndef PERFGATE_SPAWNER_PROTOCOL_H
#define PERFGATE_SPAWNER_PROTOCOL_H

#include <stdint.h>

/* The spawner finds its sockets here (perfgate dup2s its ends onto these descriptors). */
#define PERFGATE_SPAWNER_FD 3
#define PERFGATE_SPAWNER_CONTROL_FD 4

/* Bumped whenever a message changes; the spawner refuses a request of another version, so a
 * perfgate and a spawner from two builds never misread each other. */
#define PERFGATE_SPAWNER_PROTOCOL_VERSION 4u

enum perfgate_spawner_request_type {
  /* Start a run: followed by payload_bytes of NUL-terminated strings, in order: the working
   * directory (when PERFGATE_SPAWN_HAS_CWD), argc arguments, envc environment entries (when
   * PERFGATE_SPAWN_HAS_ENV; otherwise the child inherits the spawner's environment). With
   * PERFGATE_SPAWN_CAPTURE_OUTPUT the message carries one descriptor (SCM_RIGHTS), the write
   * end of the output pipe, which becomes the child's stdout and stderr. Runs are numbered
   * 1, 2, ... in the order their requests arrive. */
  PERFGATE_SPAWNER_RUN = 1,
  /* (control socket) Kill run `run_id` and skip every run numbered up to it that has not
   * started. Ignored for a run that has already finished. */
  PERFGATE_SPAWNER_KILL = 2
};

enum {
  PERFGATE_SPAWN_CAPTURE_OUTPUT = 1u << 0,
  PERFGATE_SPAWN_HAS_CWD = 1u << 1,
  PERFGATE_SPAWN_HAS_ENV = 1u << 2,
  /* After the run, kill the processes it left behind outside its process group (daemons
   * that double-forked): children of the spawner that were not there before the run. */
  PERFGATE_SPAWN_KILL_ESCAPEES = 1u << 3,
  /* Start this run only when the run before it exited with status 0: a run queued behind
   * one that failed is SKIPPED, as perfgate would not have asked for it. */
  PERFGATE_SPAWN_AFTER_SUCCESS = 1u << 4
};

struct perfgate_spawner_request {
  uint32_t version;
  uint32_t type;
  uint32_t flags;
  uint32_t argc;
  uint32_t envc;
  uint32_t run_id;          /* KILL: the run to kill */
  uint64_t payload_bytes;   /* RUN */
  int64_t timeout_ns;       /* RUN: kill the run's group this long after it started; 0: never */
  int64_t started_after_ns; /* RUN: say STARTED once the run has lasted this long (0: at once);
                             * a shorter run never says it, one system call less */
};

enum perfgate_spawner_reply_type {
  /* (control socket) The run started (and has lasted started_after_ns): pid is its leader
   * and process group. */
  PERFGATE_SPAWNER_STARTED = 1,
  /* The run is over. pid > 0: the leader exited (or was killed), what was left of its group
   * was killed and everything was reaped. pid == -1: it could not start, error is the errno
   * that says why. */
  PERFGATE_SPAWNER_FINISHED = 2,
  /* The run was not started: a KILL named it first, or it asked for
   * PERFGATE_SPAWN_AFTER_SUCCESS and the run before it did not succeed. */
  PERFGATE_SPAWNER_SKIPPED = 3
};

struct perfgate_spawner_reply {
  uint32_t type;
  uint32_t run_id;
  int32_t pid;
  int32_t error;
  int32_t status;      /* FINISHED: the leader's wait status */
  int32_t killed;      /* FINISHED: 1 when a KILL request ended the run before the leader exited */
  int32_t timed_out;   /* FINISHED: 1 when its timeout_ns passed before the leader exited */
  int32_t escaped;     /* FINISHED: processes killed under PERFGATE_SPAWN_KILL_ESCAPEES; -1 when
                        * the kernel does not list a process's children (they were not looked for) */
  int64_t user_us;     /* FINISHED: user CPU of everything reaped for the run */
  int64_t system_us;   /* FINISHED: system CPU of everything reaped for the run */
  int64_t max_rss_kib; /* FINISHED: the largest ru_maxrss of everything reaped */
  int64_t wall_ns;     /* FINISHED: from just before the spawn to the leader's exit */
  int64_t ended_at_ns; /* FINISHED: CLOCK_MONOTONIC at the leader's exit, about when a run
                        * queued behind it starts */
};

#endif
