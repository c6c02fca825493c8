// A child program for the executor tests: one binary whose first argument picks what it
// does, so each test can start a real process with a known behaviour.
//
//   exit N                   exit with status N
//   segv                     die of SIGSEGV
//   sleep SECONDS            sleep, then exit 0
//   spin MS                  burn MS milliseconds of CPU time
//   alloc MB HOLD_MS         allocate MB MiB, touch every page, hold it HOLD_MS
//   tree MODE ARGS...        fork a child that forks a grandchild running MODE ARGS...;
//                            each parent waits for its child
//   orphan MODE ARGS...      fork a child that forks a grandchild running MODE ARGS... and
//                            exits at once, orphaning it; wait until the grandchild is done
//   detach MODE ARGS...      fork a child running MODE ARGS... and exit without waiting
//   escape MODE ARGS...      fork a child that leaves the process group (setsid), prints
//                            its pid and runs MODE ARGS...; exit without waiting
//   concurrent N MB HOLD_MS  N children alive at once, each running alloc MB HOLD_MS
//   hang PIDFILE             fork a grandchild that sleeps forever, write
//                            "<own pid> <grandchild pid>" to PIDFILE, sleep forever
//   output BYTES             write BYTES bytes; byte i is 'a' + i % 23
//   lines N                  print "line 1" .. "line N"
//   metrics                  append two JSON lines to $PERFGATE_METRICS_OUT
//   probe                    write a probe report to $PERFGATE_PROBE_OUT, as perfgate-probe
//                            would: two runs, regions decode (20 and 30 ms) and
//                            decode/huffman (5 ms each)
//   probe-bad                write a probe report whose runs[0].timing is a string
//   env NAME                 print the value of NAME
//   cwd                      print the working directory
//   stdin                    print what standard input is connected to
//   signals                  print whether SIGPIPE is ignored and SIGUSR1 is blocked
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

int run(const std::vector<std::string>& args);

long number(const std::vector<std::string>& args, std::size_t index) {
  if (index >= args.size()) {
    std::fprintf(stderr, "test_child: missing argument %zu\n", index);
    std::exit(64);
  }
  return std::stol(args[index]);
}

void sleep_ms(long ms) {
  timespec wait{ms / 1000, (ms % 1000) * 1'000'000};
  while (nanosleep(&wait, &wait) != 0) {
  }
}

[[noreturn]] void sleep_forever() {
  for (;;) pause();
}

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

int spin(long ms) {
  const double until = cpu_seconds() + static_cast<double>(ms) / 1000.0;
  // Reading a CPU clock is a system call: read it rarely so that the time is user time.
  volatile unsigned long counter = 0;
  while (cpu_seconds() < until) {
    for (int i = 0; i < 1'000'000; ++i) counter = counter + 1;
  }
  return 0;
}

int alloc(long mb, long hold_ms) {
  const std::size_t bytes = static_cast<std::size_t>(mb) << 20;
  char* memory = static_cast<char*>(std::malloc(bytes));
  if (memory == nullptr) return 2;
  // Volatile stores: an optimiser may drop a plain memset of memory that is never read.
  volatile char* pages = memory;
  const std::size_t page_bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (std::size_t offset = 0; offset < bytes; offset += page_bytes) pages[offset] = 1;
  sleep_ms(hold_ms);
  std::free(memory);
  return 0;
}

// Runs `args` in a forked child; the child leaves with _exit so that it never runs the
// parent's exit handlers or flushes its stdio buffers a second time.
pid_t start(const std::vector<std::string>& args) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int status = run(args);
    std::fflush(nullptr);
    _exit(status);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int output(long bytes) {
  std::vector<char> chunk(1 << 16);
  for (long written = 0; written < bytes;) {
    const long count = std::min<long>(bytes - written, static_cast<long>(chunk.size()));
    for (long i = 0; i < count; ++i) chunk[i] = static_cast<char>('a' + (written + i) % 23);
    std::fwrite(chunk.data(), 1, static_cast<std::size_t>(count), stdout);
    written += count;
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  const std::string mode = args.empty() ? "" : args[0];
  if (mode == "exit") return static_cast<int>(number(args, 1));
  if (mode == "segv") {
    signal(SIGSEGV, SIG_DFL);  // a sanitizer's handler would turn the crash into an exit
    raise(SIGSEGV);
    return 1;
  }
  if (mode == "sleep") {
    sleep_ms(number(args, 1) * 1000);
    return 0;
  }
  if (mode == "spin") return spin(number(args, 1));
  if (mode == "alloc") return alloc(number(args, 1), number(args, 2));
  if (mode == "tree" || mode == "parent-of") {
    // "tree X" starts "parent-of X", which starts X: X runs in a grandchild.
    std::vector<std::string> child(args.begin() + 1, args.end());
    if (mode == "tree") child.insert(child.begin(), "parent-of");
    return wait_for(start(child));
  }
  if (mode == "orphan") {
    // The grandchild holds the write end of `done`; end of file means it has exited.
    int done[2];
    if (pipe(done) != 0) return 2;
    std::fflush(nullptr);
    const pid_t middle = fork();
    if (middle == 0) {
      close(done[0]);
      start(std::vector<std::string>(args.begin() + 1, args.end()));
      _exit(0);
    }
    close(done[1]);
    wait_for(middle);
    char ignored;
    while (read(done[0], &ignored, 1) != 0) {
    }
    return 0;
  }
  if (mode == "detach") {
    start(std::vector<std::string>(args.begin() + 1, args.end()));
    return 0;
  }
  if (mode == "escape") {
    // The pid is printed before the leader exits: it waits until `printed` is closed.
    int printed[2];
    if (pipe(printed) != 0) return 2;
    std::fflush(nullptr);
    if (fork() == 0) {
      setsid();
      std::printf("%d\n", getpid());
      std::fflush(nullptr);
      close(printed[0]);
      close(printed[1]);
      _exit(run(std::vector<std::string>(args.begin() + 1, args.end())));
    }
    close(printed[1]);
    char ignored;
    while (read(printed[0], &ignored, 1) != 0) {
    }
    return 0;
  }
  if (mode == "concurrent") {
    std::vector<pid_t> children;
    for (long i = 0; i < number(args, 1); ++i) {
      children.push_back(start({"alloc", args.at(2), args.at(3)}));
    }
    int failures = 0;
    for (const pid_t child : children) failures += wait_for(child) != 0;
    return failures == 0 ? 0 : 1;
  }
  if (mode == "hang") {
    const pid_t grandchild = start({"sleep-forever"});
    const std::string temporary = args.at(1) + ".tmp";
    std::ofstream(temporary) << getpid() << ' ' << grandchild << '\n';
    std::rename(temporary.c_str(), args.at(1).c_str());
    sleep_forever();
  }
  if (mode == "sleep-forever") sleep_forever();
  if (mode == "output") return output(number(args, 1));
  if (mode == "lines") {
    for (long i = 1; i <= number(args, 1); ++i) std::printf("line %ld\n", i);
    return 0;
  }
  if (mode == "metrics") {
    const char* path = std::getenv("PERFGATE_METRICS_OUT");
    if (path == nullptr) return 2;
    std::ofstream(path, std::ios::app)
        << R"({"name": "decode", "value": 1.5, "unit": "s"})" << '\n'
        << R"({"name": "frames", "value": 120, "direction": "higher"})" << '\n';
    return 0;
  }
  if (mode == "probe" || mode == "probe-bad") {
    const char* path = std::getenv("PERFGATE_PROBE_OUT");
    if (path == nullptr) return 2;
    const char* timing =
        mode == "probe-bad" ? R"("fast")" : R"({"wall_time_us": 40000.0, "cpu_time_us": 39000.0})";
    std::ofstream(path) << R"({"schema_version": 1, "created_at": "2026-11-30T14:50:00Z",
"perfgate_version": "0.1.0",
"config": {"clock": "steady_clock", "clock_hz": null, "enabled": true, "trace": false},
"target": {"executable": "test_child", "pid": 1, "process_name": "test_child"},
"runs": [
 {"run_index": 0, "thread_index": 0, "timing": )"
                        << timing << R"(,
  "regions": [
   {"region_id": "decode", "calls": 1, "wall_time_us": 20000.0, "self_wall_time_us": 15000.0, "wall_time_fraction": 0.5},
   {"region_id": "decode/huffman", "calls": 2, "wall_time_us": 5000.0, "self_wall_time_us": 5000.0, "wall_time_fraction": 0.125}],
  "residual": {"wall_time_us": 20000.0, "wall_time_fraction": 0.5}},
 {"run_index": 1, "thread_index": 0, "timing": {"wall_time_us": 40000.0, "cpu_time_us": 39000.0},
  "regions": [
   {"region_id": "decode", "calls": 1, "wall_time_us": 30000.0, "self_wall_time_us": 25000.0, "wall_time_fraction": 0.75},
   {"region_id": "decode/huffman", "calls": 2, "wall_time_us": 5000.0, "self_wall_time_us": 5000.0, "wall_time_fraction": 0.125}],
  "residual": {"wall_time_us": 10000.0, "wall_time_fraction": 0.25}}],
"regions": [
 {"id": "decode", "name": "decode", "parent": null, "depth": 0, "file": "c.cpp", "line": 1, "function": "main"},
 {"id": "decode/huffman", "name": "huffman", "parent": "decode", "depth": 1, "file": "c.cpp", "line": 2, "function": "main"}],
"threads": [{"thread_index": 0, "name": "main"}],
"key_averages": {"self_time": [], "total_time": []},
"trace": null, "warnings": []})";
    return 0;
  }
  if (mode == "env") {
    const char* value = std::getenv(args.at(1).c_str());
    if (value == nullptr) return 2;
    std::printf("%s\n", value);
    return 0;
  }
  if (mode == "cwd" || mode == "stdin") {
    std::vector<char> path(PATH_MAX + 1, '\0');
    const bool known = mode == "cwd" ? getcwd(path.data(), PATH_MAX) != nullptr
                                     : readlink("/proc/self/fd/0", path.data(), PATH_MAX) > 0;
    if (!known) return 2;
    std::printf("%s\n", path.data());
    return 0;
  }
  if (mode == "signals") {
    struct sigaction pipe_action {};
    sigaction(SIGPIPE, nullptr, &pipe_action);
    sigset_t blocked;
    sigprocmask(SIG_BLOCK, nullptr, &blocked);
    std::printf("SIGPIPE %s, SIGUSR1 %s\n",
                pipe_action.sa_handler == SIG_IGN ? "ignored" : "default",
                sigismember(&blocked, SIGUSR1) ? "blocked" : "unblocked");
    return 0;
  }
  std::fprintf(stderr, "test_child: unknown mode '%s'\n", mode.c_str());
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  return run(std::vector<std::string>(argv + 1, argv + argc));
}
