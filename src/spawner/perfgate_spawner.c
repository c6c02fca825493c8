/* perfgate-spawner: starts the processes perfgate measures, so that their peak memory does
 * not include perfgate's own.
 *
 * A child made with vfork shares its parent's memory until exec, and at exec
 * the kernel folds the parent's high-water resident set into the child's ru_maxrss. Started
 * by perfgate, every run would read at least perfgate's resident set; started by this small
 * static program, the floor is this program's own (a few hundred KiB).
 *
 * perfgate starts one spawner per executor with its ends of two socketpairs on descriptors 3
 * and 4 (protocol.h) and sends one request per run, and may queue the requests of the next
 * runs while one is in progress (they wait in the socket, read in order). For each run the spawner
 * starts the command in a new process group, says its pid on the control socket, waits for the
 * leader to exit (or for its timeout, or for a KILL request), kills what is left of the group,
 * reaps all of it, and reports the leader's status with the CPU time and largest ru_maxrss of
 * everything it reaped. Then it takes the next request at once: perfgate handles the finished run
 * while the next one is already running, and may sleep through several runs. It is a child
 * subreaper, so orphans of the run come back to it to be reaped and counted. While runs
 * started the kernel's way wait for a CPU, it keeps each new run on its own CPU while the
 * run is created (keep_rule.h).
 *
 * When perfgate goes away (exits, crashes, is killed) its ends of the sockets close: the
 * spawner kills the run in progress, reaps it, starts nothing that was queued, and exits. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "keep_rule.h"
#include "protocol.h"

extern char** environ;

static const int kSocket = PERFGATE_SPAWNER_FD;
static const int kControl = PERFGATE_SPAWNER_CONTROL_FD;
/* How long to keep reaping a killed group whose members are not yet our children (their
 * dying parents have not been reaped) before giving up on them; as perfgate did. */
static const int64_t kGroupReapLimitNs = 5000000000LL;

static int64_t now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int64_t microseconds(struct timeval time) {
  return (int64_t)time.tv_sec * 1000000LL + time.tv_usec;
}

/* Reads exactly `size` bytes; 0 on end of file or error (perfgate is gone either way). */
static int read_exactly(int fd, void* buffer, size_t size) {
  char* at = buffer;
  while (size > 0) {
    const ssize_t length = read(fd, at, size);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) return 0;
    at += length;
    size -= (size_t)length;
  }
  return 1;
}

/* Reads one request header from the request socket and the descriptor that may come with it
 * (-1 when none). 0 when perfgate is gone; with `dont_wait`, -1 when no request is there. */
static int read_request(struct perfgate_spawner_request* request, int* passed_fd, int dont_wait) {
  char control[CMSG_SPACE(sizeof(int))];
  struct iovec part = {request, sizeof *request};
  struct msghdr message = {0};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  *passed_fd = -1;
  ssize_t length;
  do {
    length = recvmsg(kSocket, &message, MSG_CMSG_CLOEXEC | (dont_wait ? MSG_DONTWAIT : 0));
  } while (length < 0 && errno == EINTR);
  if (length < 0 && dont_wait && (errno == EAGAIN || errno == EWOULDBLOCK)) return -1;
  if (length <= 0) return 0;
  for (struct cmsghdr* header = CMSG_FIRSTHDR(&message); header != NULL;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
      memcpy(passed_fd, CMSG_DATA(header), sizeof(int));
    }
  }
  return read_exactly(kSocket, (char*)request + length, sizeof *request - (size_t)length);
}

static int send_reply(const struct perfgate_spawner_reply* reply) {
  const char* at = (const char*)reply;
  size_t left = sizeof *reply;
  while (left > 0) {
    const ssize_t length = send(kSocket, at, left, MSG_NOSIGNAL);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) return 0;
    at += length;
    left -= (size_t)length;
  }
  return 1;
}

struct usage {
  int64_t user_us;
  int64_t system_us;
  int64_t max_rss_kib;
};

static void add_usage(struct usage* total, const struct rusage* reaped) {
  total->user_us += microseconds(reaped->ru_utime);
  total->system_us += microseconds(reaped->ru_stime);
  if (reaped->ru_maxrss > total->max_rss_kib) total->max_rss_kib = reaped->ru_maxrss;
}

/* Kills what is left of the leader's process group and reaps all of it, the zombie leader
 * last of all: until it is reaped its pid, and so the group id, cannot be reused, so the
 * kill never reaches an unrelated group. Returns the leader's wait status. */
static int kill_and_reap_group(pid_t leader, struct usage* usage) {
  int leader_status = 0;
  int leader_reaped = 0;
  const int64_t give_up_at = now_ns() + kGroupReapLimitNs;
  while (kill(-leader, SIGKILL) == 0) {
    int status = 0;
    struct rusage reaped_usage;
    const pid_t reaped = wait4(-leader, &status, 0, &reaped_usage);
    if (reaped > 0) {
      add_usage(usage, &reaped_usage);
      if (reaped == leader) {
        leader_status = status;
        leader_reaped = 1;
      }
      continue;
    }
    if (errno == EINTR) continue;
    if (now_ns() >= give_up_at) break;
    const struct timespec millisecond = {0, 1000000};
    nanosleep(&millisecond, NULL);
  }
  /* The group can refuse signals (a set-user-ID member) yet the leader must be reaped. */
  while (!leader_reaped) {
    int status = 0;
    struct rusage reaped_usage;
    if (wait4(leader, &status, 0, &reaped_usage) == leader) {
      add_usage(usage, &reaped_usage);
      leader_status = status;
      leader_reaped = 1;
    } else if (errno != EINTR) {
      leader_reaped = 1;
    }
  }
  return leader_status;
}

/* The spawner's children, from /proc/self/task/<pid>/children (one thread: it is all of
 * them); at most `capacity`. -1 when the kernel does not list children. */
static int list_children(pid_t* children, int capacity) {
  static char path[64];
  if (path[0] == '\0') snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[8192];
  size_t used = 0;
  for (;;) {
    const ssize_t got = read(fd, text + used, sizeof text - 1 - used);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    used += (size_t)got;
    if (used == sizeof text - 1) break;
  }
  close(fd);
  text[used] = '\0';
  int count = 0;
  for (char* at = text; *at != '\0' && count < capacity;) {
    char* end = NULL;
    const long pid = strtol(at, &end, 10);
    if (end == at) break;
    if (pid > 0) children[count++] = (pid_t)pid;
    at = end;
  }
  return count;
}

static int listed(const pid_t* pids, int count, pid_t pid) {
  for (int i = 0; i < count; ++i) {
    if (pids[i] == pid) return 1;
  }
  return 0;
}

enum { kMostChildren = 1024 };

/* Kills and reaps the children that were not there before the run (`before`, or -1 when
 * the kernel lists none): processes of the run that left its group and outlived it came
 * back to this subreaper. Their own children come back as they die, so it looks again
 * until none is new (for at most a second). Returns how many were alive, or -1. */
static int kill_escapees(const pid_t* before, int before_count) {
  if (before_count < 0) return -1;
  /* With no child before the run and none now (ECHILD: the run's group is reaped), nothing
   * escaped: one system call instead of reading /proc, 8 µs of each run's critical path. */
  siginfo_t any;
  if (before_count == 0 && waitid(P_ALL, 0, &any, WEXITED | WNOHANG | WNOWAIT) < 0 &&
      errno == ECHILD) {
    return 0;
  }
  pid_t now[kMostChildren];
  int killed = 0;
  const int64_t give_up_at = now_ns() + 1000000000LL;
  for (;;) {
    const int count = list_children(now, kMostChildren);
    if (count < 0) return -1;
    int found = 0;
    for (int i = 0; i < count; ++i) {
      if (listed(before, before_count, now[i])) continue;
      ++found;
      /* A child that has already exited is reaped, not counted. */
      if (waitpid(now[i], NULL, WNOHANG) == now[i]) continue;
      kill(now[i], SIGKILL);
      while (waitpid(now[i], NULL, 0) < 0 && errno == EINTR) {
      }
      ++killed;
    }
    if (found == 0 || now_ns() >= give_up_at) return killed;
  }
}

static int leader_exited(pid_t leader) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  return waitid(P_PID, (id_t)leader, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == leader;
}

/* Points cwd (or NULL), argv and envp into `payload`, whose strings follow one another in
 * that order, each ending with NUL; argv and envp end with NULL. Returns 0 when the payload
 * does not hold as many strings as the request says. */
static int split_payload(const struct perfgate_spawner_request* request, char* payload,
                         const char** cwd, char** argv, char** envp) {
  const int has_cwd = (request->flags & PERFGATE_SPAWN_HAS_CWD) != 0;
  const size_t envc = request->flags & PERFGATE_SPAWN_HAS_ENV ? request->envc : 0u;
  const size_t count = (size_t)has_cwd + request->argc + envc;
  char* at = payload;
  char* const end = payload + request->payload_bytes;
  *cwd = NULL;
  for (size_t i = 0; i < count; ++i) {
    char* terminator = memchr(at, '\0', (size_t)(end - at));
    if (terminator == NULL) return 0;
    if (has_cwd && i == 0) {
      *cwd = at;
    } else if (i < has_cwd + request->argc) {
      argv[i - (size_t)has_cwd] = at;
    } else {
      envp[i - (size_t)has_cwd - request->argc] = at;
    }
    at = terminator + 1;
  }
  argv[request->argc] = NULL;
  envp[envc] = NULL;
  return 1;
}

/* Runs `file` as posix_spawnp would from here: a name with a slash as it is, else the first
 * that runs of each folder of `path` (an empty folder: the working one), EACCES if one was
 * refused and none ran, and no shell for a file that is not a program. Returns with errno
 * set when nothing ran. Called in the vfork()ed child: no allocation, only system calls. */
static void exec_on_path(const char* file, char* const argv[], char* const envp[],
                         const char* path) {
  if (file[0] == '\0') {
    errno = ENOENT;
    return;
  }
  if (strchr(file, '/') != NULL) {
    execve(file, argv, envp);
    return;
  }
  const size_t file_length = strlen(file);
  int refused = 0;
  for (const char* folder = path;;) {
    const char* folder_end = strchrnul(folder, ':');
    const size_t folder_length = (size_t)(folder_end - folder);
    char candidate[PATH_MAX];
    if (folder_length + 1 + file_length < sizeof candidate) {
      size_t used = 0;
      if (folder_length > 0) {
        memcpy(candidate, folder, folder_length);
        candidate[folder_length] = '/';
        used = folder_length + 1;
      }
      memcpy(candidate + used, file, file_length + 1);
      execve(candidate, argv, envp);
      switch (errno) {
        case EACCES:
          refused = 1;
          break;
        case ENOENT:
        case ESTALE:
        case ENOTDIR:
        case ENODEV:
        case ETIMEDOUT:
          break;
        default:
          return;
      }
    }
    if (*folder_end == '\0') break;
    folder = folder_end + 1;
  }
  errno = refused ? EACCES : ENOENT;
}

/* Makes descriptor `target` a copy of `fd`, open across exec; 0 on failure. dup2 onto
 * itself would keep the close-on-exec flag that every descriptor perfgate passes has. */
static int onto(int fd, int target) {
  if (fd == target) return fcntl(fd, F_SETFD, 0) == 0;
  return dup2(fd, target) == target;
}

/* Makes descriptor `target` the file `path` opened with `flags`; 0 on failure. */
static int open_onto(int target, const char* path, int flags) {
  const int fd = open(path, flags);
  if (fd < 0) return 0;
  if (fd == target) return 1;
  const int moved = dup2(fd, target) == target;
  close(fd);
  return moved;
}

/* The CPUs this spawner may use, read once at start: every run is allowed all of them. */
static cpu_set_t run_cpus;
static int can_place = 0;

/* Whether the next run is kept on the spawner's CPU (keep_rule.h). */
static struct perfgate_keep_rule keep_rule;

/* Keeps the next child on the CPU this spawner runs on, for the moment it is created, when
 * keep_rule.h says so: the CPU, or -1 when it is not kept. Before it execs, the child gives
 * all of `run_cpus` back to itself, so that the program never runs with a narrower set than
 * the spawner's; the spawner takes them back once vfork returns. (The child giving them back
 * to the spawner too, so that the spawner could wake on another CPU at the child's exec, was
 * slower under a busy loop per core: 20 of 26 interleaved rounds, docs/measurement.md.) */
static int keep_next_child_here(void) {
  if (!can_place || !perfgate_keep_next(&keep_rule)) return -1;
  const int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &run_cpus)) return -1;
  cpu_set_t here;
  CPU_ZERO(&here);
  CPU_SET(cpu, &here);
  return sched_setaffinity(0, sizeof here, &here) == 0 ? cpu : -1;
}

/* Starts `argv` in a new process group with `cwd` (or NULL), stdin /dev/null, stdout and
 * stderr `output_fd` (or /dev/null), an empty signal mask and, as the spawner ignores no
 * signal and handles none, every signal at its default action; `kept` is the CPU the spawner
 * was kept on for this child, or -1 (keep_next_child_here). The pid, or -1 with *error.
 *
 * vfork() rather than posix_spawn: glibc's child looks up and resets every signal's action
 * (some 120 system calls, as it cannot know that none is handled here) and maps a stack for
 * itself, 40 µs of each run's measured time where a system call costs 0.2 µs (make bench).
 * The child shares this program's memory until it execs, so it only makes system calls and
 * says why it failed in `child_error`, which the parent reads once vfork returns (the child
 * has exec'd or exited by then). Its own function, so that nothing the child could change
 * lives in a register across vfork. */
static __attribute__((noinline)) pid_t vfork_run(const char* cwd, char* const argv[],
                                                 char* const envp[], int output_fd,
                                                 const char* search_path, int kept, int* error) {
  sigset_t empty;
  sigemptyset(&empty);
  volatile int child_error = 0;
  const pid_t pid = vfork();
  if (pid == 0) {
    /* All of the spawner's CPUs again before anything of the program runs; a run that would
     * be narrower than asked for does not start. */
    if ((kept >= 0 && sched_setaffinity(0, sizeof run_cpus, &run_cpus) != 0) ||
        setpgid(0, 0) != 0 || (cwd != NULL && chdir(cwd) != 0) ||
        !open_onto(STDIN_FILENO, "/dev/null", O_RDONLY) ||
        (output_fd >= 0 ? !onto(output_fd, STDOUT_FILENO)
                        : !open_onto(STDOUT_FILENO, "/dev/null", O_WRONLY)) ||
        dup2(STDOUT_FILENO, STDERR_FILENO) != STDERR_FILENO ||
        sigprocmask(SIG_SETMASK, &empty, NULL) != 0) {
      child_error = errno;
      _exit(127);
    }
    exec_on_path(argv[0], argv, envp, search_path);
    child_error = errno != 0 ? errno : ENOEXEC;
    _exit(127);
  }
  const int vfork_error = errno;
  if (kept >= 0) sched_setaffinity(0, sizeof run_cpus, &run_cpus);
  if (pid < 0) {
    *error = vfork_error;
    return -1;
  }
  if (child_error != 0) {
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    *error = child_error;
    return -1;
  }
  *error = 0;
  return pid;
}

/* Starts the request's command (vfork_run); the pid, or -1 with *error set. */
static pid_t start_run(const struct perfgate_spawner_request* request, char* payload, int output_fd,
                       int* error) {
  char** strings = calloc((size_t)request->argc + 1u + request->envc + 1u, sizeof(char*));
  char** argv = strings;
  char** envp = strings + request->argc + 1;
  const char* cwd = NULL;
  if (strings == NULL || request->argc == 0 || !split_payload(request, payload, &cwd, argv, envp)) {
    free(strings);
    *error = EINVAL;
    return -1;
  }
  if (!(request->flags & PERFGATE_SPAWN_HAS_ENV)) envp = environ;
  /* Like posix_spawnp, the program is looked up on the PATH of this process (perfgate's),
   * not the run's: perfgate resolves it itself when the config sets PATH. */
  const char* search_path = getenv("PATH");
  const int kept = keep_next_child_here();
  const int64_t start_begun = now_ns();
  const pid_t pid = vfork_run(cwd, argv, envp, output_fd,
                              search_path != NULL ? search_path : "/bin:/usr/bin", kept, error);
  perfgate_keep_learn(&keep_rule, now_ns() - start_begun, kept >= 0);
  free(strings);
  return pid;
}

/* The highest run number a KILL request named: that run is killed, and no run numbered up to
 * it starts. */
static uint32_t killed_through = 0;

/* Reads the KILL requests waiting on the control socket without blocking. 0 when perfgate is
 * gone (the socket closed). */
static int read_kill_requests(void) {
  for (;;) {
    struct perfgate_spawner_request request;
    const ssize_t length = recv(kControl, &request, sizeof request, MSG_DONTWAIT);
    if (length < 0 && errno == EINTR) continue;
    if (length < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (length == 0) return 0;
    if ((size_t)length < sizeof request &&
        !read_exactly(kControl, (char*)&request + length, sizeof request - (size_t)length)) {
      return 0;
    }
    if (request.type == PERFGATE_SPAWNER_KILL && request.run_id > killed_through) {
      killed_through = request.run_id;
    }
  }
}

/* Says on the control socket that run `run_id` started. Never blocks: perfgate reads these
 * only when it needs a pid, and one that does not fit is dropped. */
static void say_started(uint32_t run_id, pid_t leader) {
  struct perfgate_spawner_reply reply;
  memset(&reply, 0, sizeof reply);
  reply.type = PERFGATE_SPAWNER_STARTED;
  reply.run_id = run_id;
  reply.pid = leader;
  send(kControl, &reply, sizeof reply, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Milliseconds until `at`, rounded up so that it has passed when poll returns. */
static int milliseconds_until(int64_t at) {
  const int64_t left = at - now_ns();
  if (left <= 0) return 0;
  return left / 1000000 >= 0x7fffffff ? 0x7fffffff : (int)((left + 999999) / 1000000);
}

/* Waits until the leader exits. A KILL request for the run kills its group first
 * (*killed = 1), and so does its deadline passing (*timed_out = 1; deadline_ns 0: none);
 * perfgate going away does too, and returns 0 so that the caller exits after reaping. Says
 * the run started once it has lasted until say_started_at (0: said already). */

static int await_leader(pid_t leader, uint32_t run_id, int64_t deadline_ns, int64_t say_started_at,
                        int child_signals, int* killed, int* timed_out) {
  struct pollfd watched[2] = {{child_signals, POLLIN, 0}, {kControl, POLLIN, 0}};
  int perfgate_alive = 1;
  for (;;) {
    int wait_ms = -1;
    if (say_started_at > 0) {
      if (now_ns() >= say_started_at) {
        if (!leader_exited(leader)) say_started(run_id, leader);
        say_started_at = 0;
        continue;
      }
      wait_ms = milliseconds_until(say_started_at);
    }
    if (deadline_ns > 0 && !*timed_out && !*killed) {
      if (now_ns() >= deadline_ns) {
        /* It exited just as its time ran out: that is not a timeout. */
        if (leader_exited(leader)) return perfgate_alive;
        kill(-leader, SIGKILL);
        *timed_out = 1;
        continue;
      }
      const int until_deadline = milliseconds_until(deadline_ns);
      if (wait_ms < 0 || until_deadline < wait_ms) wait_ms = until_deadline;
    }
    /* SIGCHLD stays blocked, so one that came before this poll is still pending on the
     * signalfd: the leader's exit is never missed, and no waitid is spent before it. */
    if (poll(watched, perfgate_alive ? 2 : 1, wait_ms) < 0) continue;
    if (watched[0].revents != 0) {
      struct signalfd_siginfo info;
      while (read(child_signals, &info, sizeof info) > 0) {
      }
      if (leader_exited(leader)) return perfgate_alive;
    }
    if (perfgate_alive && watched[1].revents != 0) {
      if (!read_kill_requests()) perfgate_alive = 0;
      if ((!perfgate_alive || killed_through >= run_id) && !*killed && !leader_exited(leader)) {
        kill(-leader, SIGKILL);
        *killed = 1;
      }
    }
  }
}

/* A run's FINISHED reply waits here while the next run, already queued, starts: perfgate
 * wakes for it while that run is under way instead of while it is being started. */
static struct perfgate_spawner_reply held_reply;
static int holding_reply = 0;
/* The write end of the finished run's output pipe, closed only after its reply is sent: the
 * end of its output then never wakes perfgate on its own, apart from the reply. */
static int held_output_fd = -1;

static int send_held_reply(void) {
  if (!holding_reply) return 1;
  holding_reply = 0;
  const int sent = send_reply(&held_reply);
  if (held_output_fd >= 0) close(held_output_fd);
  held_output_fd = -1;
  return sent;
}

/* Our own signal state is what every child starts from: nothing ignored, nothing blocked
 * but SIGCHLD, which is read from a signalfd instead. */
static int reset_signals(void) {
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &default_action, NULL);
  }
  sigset_t child;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  sigprocmask(SIG_SETMASK, &child, NULL);
  return signalfd(-1, &child, SFD_NONBLOCK | SFD_CLOEXEC);
}

int main(void) {
  if (fcntl(kSocket, F_SETFD, FD_CLOEXEC) != 0) return 70;
  if (fcntl(kControl, F_SETFD, FD_CLOEXEC) != 0) return 70;
#ifdef SYS_close_range
  /* Nothing perfgate left open by mistake may reach the runs. */
  syscall(SYS_close_range, kControl + 1, ~0u, 0);
#endif
  const int child_signals = reset_signals();
  if (child_signals < 0) return 71;
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  /* Placing runs needs more than one CPU to choose from, and a set that fits cpu_set_t. */
  can_place = sched_getaffinity(0, sizeof run_cpus, &run_cpus) == 0 && CPU_COUNT(&run_cpus) > 1;
  keep_rule = perfgate_keep_rule_start();

  uint32_t last_run = 0;
  int last_succeeded = 1;
  /* Known to have no child between runs (a hook's daemon, an orphan), so that a run's
   * escapees are whatever children are there after it. */
  int no_children = 0;
  for (;;) {
    /* Orphans that left a run's group may die between runs; nobody else reaps them. */
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    struct perfgate_spawner_request request;
    int output_fd = -1;
    /* The reply waits only for a request that is already there. */
    int received = read_request(&request, &output_fd, holding_reply);
    if (received < 0) {
      if (!send_held_reply()) return 0;
      received = read_request(&request, &output_fd, 0);
    }
    if (received <= 0) return 0;
    if (request.version != PERFGATE_SPAWNER_PROTOCOL_VERSION) return 72;
    if (request.type != PERFGATE_SPAWNER_RUN) {
      if (output_fd >= 0) close(output_fd);
      continue;
    }
    char* payload = malloc(request.payload_bytes + 1);
    if (payload == NULL || !read_exactly(kSocket, payload, request.payload_bytes)) return 73;
    payload[request.payload_bytes] = '\0';
    const uint32_t run_id = ++last_run;

    struct perfgate_spawner_reply reply;
    memset(&reply, 0, sizeof reply);
    reply.run_id = run_id;
    /* A KILL for a queued run, or perfgate gone, while the run before it was in progress. */
    if (!read_kill_requests()) return 0;
    if (run_id <= killed_through ||
        ((request.flags & PERFGATE_SPAWN_AFTER_SUCCESS) != 0 && !last_succeeded)) {
      free(payload);
      if (output_fd >= 0) close(output_fd);
      last_succeeded = 0;
      reply.type = PERFGATE_SPAWNER_SKIPPED;
      reply.pid = -1;
      if (!send_held_reply() || !send_reply(&reply)) return 0;
      continue;
    }

    /* Children there before the run (a daemon a setup hook started) are not the run's. After
     * a run whose escapees were killed, with none there before it, there are none: no need
     * to look again. */
    static pid_t before[kMostChildren];
    const int kill_escapees_after = (request.flags & PERFGATE_SPAWN_KILL_ESCAPEES) != 0;
    const int before_count =
        kill_escapees_after && !no_children ? list_children(before, kMostChildren) : 0;
    no_children = 0;
    const int64_t started_at = now_ns();
    int error = 0;
    const pid_t leader = start_run(&request, payload, output_fd, &error);
    free(payload);
    reply.type = PERFGATE_SPAWNER_FINISHED;
    reply.pid = leader;
    if (leader < 0) {
      if (output_fd >= 0) close(output_fd);
      last_succeeded = 0;
      reply.error = error;
      if (!send_held_reply() || !send_reply(&reply)) return 0;
      continue;
    }
    if (!send_held_reply()) {
      if (output_fd >= 0) close(output_fd);
      struct usage ignored = {0, 0, 0};
      kill_and_reap_group(leader, &ignored);
      return 0;
    }
    int64_t say_started_at = started_at + request.started_after_ns;
    if (request.started_after_ns <= 0) {
      say_started(run_id, leader);
      say_started_at = 0;
    }

    int killed = 0;
    int timed_out = 0;
    struct usage usage = {0, 0, 0};
    const int64_t deadline = request.timeout_ns > 0 ? started_at + request.timeout_ns : 0;
    const int keep_serving =
        await_leader(leader, run_id, deadline, say_started_at, child_signals, &killed, &timed_out);
    const int64_t ended_at = now_ns();
    const int status = kill_and_reap_group(leader, &usage);
    const int escaped = kill_escapees_after ? kill_escapees(before, before_count) : 0;
    no_children = kill_escapees_after && before_count == 0 && escaped >= 0;
    last_succeeded = !killed && !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;

    reply.status = status;
    reply.killed = killed;
    reply.timed_out = timed_out;
    reply.escaped = escaped;
    reply.user_us = usage.user_us;
    reply.system_us = usage.system_us;
    reply.max_rss_kib = usage.max_rss_kib;
    reply.wall_ns = ended_at - started_at;
    reply.ended_at_ns = ended_at;
    if (!keep_serving) return 0;
    held_reply = reply;
    holding_reply = 1;
    held_output_fd = output_fd;
  }
}
