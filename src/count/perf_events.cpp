#include "count/perf_events.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>

#include "model/json.hpp"

namespace perfgate {
namespace {

class SystemPerfEvents : public PerfEventApi {
 public:
  int open(pid_t pid, const PerfEvent& event, bool enable_on_exec) override {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = event.type;
    attr.config = event.config;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.inherit = 1;
    // User space only: allowed at perf_event_paranoid 2 for one's own processes, and the
    // kernel's share of a run is the least repeatable part of it.
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.disabled = enable_on_exec ? 1 : 0;
    attr.enable_on_exec = enable_on_exec ? 1 : 0;
    const long fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
  }

  std::optional<std::uint64_t> read(int fd) override {
    std::uint64_t values[3] = {0, 0, 0};  // value, time enabled, time running
    if (::read(fd, values, sizeof values) != static_cast<ssize_t>(sizeof values)) {
      return std::nullopt;
    }
    if (values[2] == 0) return values[0] == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
    if (values[2] >= values[1]) return values[0];
    return static_cast<std::uint64_t>(static_cast<double>(values[0]) *
                                      static_cast<double>(values[1]) /
                                      static_cast<double>(values[2]));
  }

  void close(int fd) override { ::close(fd); }
};

std::string errno_text(int error) {
  return std::strerror(error);
}

}  // namespace

const std::vector<PerfEvent>& hardware_count_events() {
  static const std::vector<PerfEvent> events = {
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
      {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
  };
  return events;
}

PerfEventApi& system_perf_events() {
  static SystemPerfEvents api;
  return api;
}

std::optional<int> read_perf_event_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

std::optional<std::string> perf_counters_unavailable(PerfEventApi& api,
                                                     std::optional<int> paranoid) {
  for (const PerfEvent& event : hardware_count_events()) {
    const int fd = api.open(0, event, /*enable_on_exec=*/false);
    if (fd < 0) {
      const int error = -fd;
      const std::string what = "perf_event_open(" + event.metric + "): " + errno_text(error);
      if (error == EACCES || error == EPERM) {
        return what + "; the kernel refuses hardware counters to this user (" +
               (paranoid ? "kernel.perf_event_paranoid is " + std::to_string(*paranoid)
                         : std::string("kernel.perf_event_paranoid could not be read")) +
               "). Allow them with 'sysctl kernel.perf_event_paranoid=2' (user-space counts of "
               "one's own processes), or give perfgate CAP_PERFMON";
      }
      if (error == ENOSYS) return what + "; this kernel was built without perf events";
      return what +
             "; this CPU exposes no hardware counters to this system: a virtual machine "
             "without a virtual PMU (most cloud CI runners), or a container that hides them";
    }
    const std::optional<std::uint64_t> value = api.read(fd);
    api.close(fd);
    if (!value) {
      return "perf_event_open(" + event.metric +
             "): the counter opened but never counted; the hypervisor or another tool holds "
             "the hardware counters";
    }
  }
  return std::nullopt;
}

CountedExit run_counted(const std::vector<std::string>& argv, PerfEventApi& api) {
  CountedExit out;
  if (argv.empty()) {
    out.failure = "no command to count";
    return out;
  }
  // Built before fork: the child of a process with threads may only make async-signal-safe
  // calls, and malloc is not one.
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  int go[2];
  if (pipe2(go, O_CLOEXEC) != 0) {
    out.failure = "pipe: " + errno_text(errno);
    return out;
  }
  const pid_t child = fork();
  if (child < 0) {
    out.failure = "fork: " + errno_text(errno);
    ::close(go[0]);
    ::close(go[1]);
    return out;
  }
  if (child == 0) {
    ::close(go[1]);
    char byte = 0;
    // The parent writes one byte once the counters are attached; end of file means it
    // could not attach them, and the program must not run uncounted.
    ssize_t got;
    do {
      got = ::read(go[0], &byte, 1);
    } while (got < 0 && errno == EINTR);
    if (got != 1) _exit(126);
    execvp(args[0], args.data());
    const char* reason = std::strerror(errno);
    for (const char* part :
         {"perfgate: cannot run ", static_cast<const char*>(args[0]), ": ", reason, "\n"}) {
      (void)!::write(STDERR_FILENO, part, std::strlen(part));
    }
    _exit(127);
  }
  ::close(go[0]);
  std::vector<std::pair<std::string, int>> counters;
  for (const PerfEvent& event : hardware_count_events()) {
    const int fd = api.open(child, event, /*enable_on_exec=*/true);
    if (fd < 0) {
      out.failure = "perf_event_open(" + event.metric + "): " + errno_text(-fd);
      break;
    }
    counters.emplace_back(event.metric, fd);
  }
  if (out.failure.empty()) {
    const char byte = 'x';
    if (::write(go[1], &byte, 1) != 1)
      out.failure = "could not start the program: " + errno_text(errno);
  }
  ::close(go[1]);
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(child, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited == child && out.failure.empty()) out.wait_status = status;
  for (const auto& [metric, fd] : counters) {
    if (out.failure.empty()) {
      if (const auto value = api.read(fd)) {
        out.counts[metric] = *value;
      } else {
        out.failure = metric + ": the counter never counted";
      }
    }
    api.close(fd);
  }
  if (!out.failure.empty()) out.counts.clear();
  return out;
}

int count_hardware_main(int argc, char** argv) {
  // perfgate __count-hardware OUT -- ARGV...
  if (argc < 5 || std::strcmp(argv[3], "--") != 0) {
    std::cerr << "perfgate " << kCountHardwareCommand << ": usage: perfgate "
              << kCountHardwareCommand
              << " OUT -- COMMAND ARGS... (the harness's own wrapper of a counted run)\n";
    return 64;
  }
  const std::string out_path = argv[2];
  const std::vector<std::string> command(argv + 4, argv + argc);
  // The program gets SIGPIPE and the other signals as a shell would give them.
  std::signal(SIGPIPE, SIG_DFL);
  const CountedExit counted = run_counted(command, system_perf_events());
  if (!counted.failure.empty()) {
    std::cerr << "perfgate: hardware counters: " << counted.failure << "\n";
    return 70;
  }
  Json counts = Json::object();
  for (const auto& [metric, value] : counted.counts) counts[metric] = value;
  {
    std::ofstream out(out_path, std::ios::trunc);
    out << counts.dump() << "\n";
    if (!out) {
      std::cerr << "perfgate: hardware counters: cannot write " << out_path << "\n";
      return 74;
    }
  }
  const int status = *counted.wait_status;
  if (WIFSIGNALED(status)) {
    std::signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 70;
}

}  // namespace perfgate
