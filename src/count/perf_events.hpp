#pragma once
// Hardware counters through perf_event_open(2): instructions, cycles and branch misses of
// a process and every process it starts, counted in user space only (which
// perf_event_paranoid 2, the kernel's default, allows for one's own processes). Behind an
// interface, so that the code that uses them is tested with a fake on machines (virtual
// ones, like CI runners) whose CPU exposes no counters.
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// A counter to open: the metric it becomes, and perf_event_attr's type and config.
struct PerfEvent {
  std::string metric;
  std::uint32_t type = 0;
  std::uint64_t config = 0;
};

/// instructions, cycles, branch_misses (PERF_TYPE_HARDWARE's generic events).
const std::vector<PerfEvent>& hardware_count_events();

class PerfEventApi {
 public:
  virtual ~PerfEventApi() = default;
  /// Opens `event` on process `pid` (0: the caller), user space only, inherited by the
  /// children the process starts. With `enable_on_exec` it counts from the process's next
  /// execve, else at once. Returns a file descriptor, or -errno.
  virtual int open(pid_t pid, const PerfEvent& event, bool enable_on_exec) = 0;
  /// The counter's value (scaled up if the kernel had to share the hardware between
  /// counters), or nullopt when it never ran.
  virtual std::optional<std::uint64_t> read(int fd) = 0;
  virtual void close(int fd) = 0;
};

/// The kernel's perf_event_open.
PerfEventApi& system_perf_events();

/// /proc/sys/kernel/perf_event_paranoid, or nullopt when it cannot be read.
std::optional<int> read_perf_event_paranoid();

/// Nullopt when every hardware_count_events() counter opens and counts on this process;
/// otherwise why not, naming the fix: perf_event_paranoid (with `paranoid`, its value) for
/// a permission error, the virtualisation for a CPU without counters.
std::optional<std::string> perf_counters_unavailable(PerfEventApi& api,
                                                     std::optional<int> paranoid);

/// What run_counted saw.
struct CountedExit {
  /// waitpid's status of the program, when it was started.
  std::optional<int> wait_status;
  /// metric -> count over the program's whole process tree (empty on failure).
  std::map<std::string, std::uint64_t> counts;
  std::string failure;  ///< why nothing was counted; empty when counted
};

/// Starts `argv` (PATH searched) with every hardware_count_events() counter attached
/// before it execs, waits for it, and reads the counters: children it started and waited
/// for are included (the counters are inherited). The child waits on a pipe until the
/// counters are open, so not one of its instructions is missed; when a counter cannot be
/// opened the program is never started.
CountedExit run_counted(const std::vector<std::string>& argv, PerfEventApi& api);

/// `perfgate __count-hardware OUT -- ARGV...` (hidden: the harness puts it before a
/// counted run's command): runs ARGV under run_counted, writes the counts to OUT as a JSON
/// object {"instructions": N, "cycles": N, "branch_misses": N}, and exits as the program
/// did (its status, or the same signal). 70 with the reason on stderr when it could not
/// count.
int count_hardware_main(int argc, char** argv);
inline constexpr const char* kCountHardwareCommand = "__count-hardware";

}  // namespace perfgate
