#pragma once
// perfgate-probe: named regions and measured runs inside a native program, reported as one
// JSON document (docs/probe-report.md). This header is the whole C++ API a program needs.
//
//   void frame() {
//     perfgate::probe::Run run;                  // one measured iteration
//     { PERFGATE_REGION("decode"); decode(); }
//     { PERFGATE_REGION("render"); render(); }
//   }                                            // the rest of the run is residual
//
// Compiling with PERFGATE_PROBE_DISABLE defined turns PERFGATE_REGION into nothing and Run
// into an empty type. The enabled and disabled types live in different inline namespaces,
// so translation units built either way can share one program without an ODR clash.

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace perfgate::probe {

/// Turns recording on or off at run time (also: PERFGATE_PROBE=0 in the environment).
/// Regions and runs that are already open finish as they started.
void set_enabled(bool enabled) noexcept;
bool enabled() noexcept;

/// Keeps one trace event per region call (also: PERFGATE_PROBE_TRACE=1), up to a fixed
/// number of events; the rest are counted as dropped. A call is traced when tracing is on
/// both when it begins and when it ends.
void set_trace(bool on) noexcept;

/// Also times each region call in CPU time of its thread (also: PERFGATE_PROBE_CPU=1): two
/// system calls per region, so several hundred nanoseconds each; off by default. Runs
/// started while it is on report per-region CPU time and a CPU residual.
void set_cpu_time(bool on) noexcept;

/// Names the calling thread in the report's `threads[]` (default: "main" or "thread-N").
void set_thread_name(std::string_view name);

/// Marks exactly the first `count` runs of each thread as warmups (also:
/// PERFGATE_PROBE_WARMUP_RUNS); 0 marks none. Warmups stay in the report's runs[] but not in
/// its key averages or summaries. With no count set, a thread's first run is its warmup
/// whenever further runs follow it: it absorbs the probe's own first-use cost (its tables,
/// the thread's state), as a profiler's implicit warmup does.
void set_warmup_runs(unsigned count) noexcept;

/// Writes the report to `path` now (through a temporary file and a rename). Returns false
/// when the file cannot be written. At exit the report goes to PERFGATE_PROBE_OUT if set.
bool flush(const std::string& path);

namespace detail {
// Everything below is reached through the macros and types; not a stable API.
extern std::atomic<bool> g_enabled;
std::uint32_t register_site(const char* name, const char* file, int line, const char* function);
/// The call site of a name known only at run time, interned (see NamedRegion).
std::uint32_t dynamic_site(std::string_view name) noexcept;

/// A run of some thread, and the region open in it when the reference was taken (kNone:
/// none), for work handed to another thread. thread 0 with run 0 is no run.
struct RunRef {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t thread = 0;
  std::uint32_t run = 0;  ///< the thread's runs count from 1
  std::uint32_t region = kNone;
};
RunRef current_run() noexcept;
bool attach_run(const RunRef& run) noexcept;

/// Which call a Region opened: the thread state that opened it and that call's serial
/// number there, so that an end on another thread, or out of order, is recognised.
struct OpenRegion {
  void* owner = nullptr;  ///< null: nothing was opened (the probe was off)
  std::uint64_t serial = 0;
};
OpenRegion enter_region(std::uint32_t site) noexcept;
void exit_region(OpenRegion region) noexcept;
void begin_run() noexcept;
void end_run() noexcept;
}  // namespace detail

#ifndef PERFGATE_PROBE_DISABLE
inline namespace enabled_v2 {

/// Times the enclosing scope as a call of one region; made by PERFGATE_REGION. A region
/// should end on the thread that began it, innermost first (a scope guarantees both); one
/// that does not is reported (REGION_END_MISMATCH, REGION_ENDED_ON_OTHER_THREAD) and
/// leaves every other region intact.
class Region {
 public:
  explicit Region(std::uint32_t site) noexcept {
    if (detail::g_enabled.load(std::memory_order_relaxed)) open_ = detail::enter_region(site);
  }
  ~Region() {
    if (open_.owner != nullptr) detail::exit_region(open_);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  detail::OpenRegion open_;
};

/// A region whose name is known only at run time (a file name, a request kind). Names are
/// interned: the first call with a name costs a lookup under a lock, later ones a hash of
/// the text. At most 131,072 distinct names are kept; further names share the region
/// "(other names)" and the report says so (DYNAMIC_NAMES_CAPPED). PERFGATE_REGION takes
/// string literals only, and costs less.
class NamedRegion {
 public:
  explicit NamedRegion(std::string_view name) noexcept {
    if (detail::g_enabled.load(std::memory_order_relaxed)) {
      open_ = detail::enter_region(detail::dynamic_site(name));
    }
  }
  ~NamedRegion() {
    if (open_.owner != nullptr) detail::exit_region(open_);
  }
  NamedRegion(const NamedRegion&) = delete;
  NamedRegion& operator=(const NamedRegion&) = delete;

 private:
  detail::OpenRegion open_;
};

/// One measured iteration on the calling thread: its wall and CPU time, and every region
/// entered on this thread while it is open. A Run inside another Run on the same thread is
/// ignored (the outer one measures).
class Run {
 public:
  Run() noexcept : active_(detail::g_enabled.load(std::memory_order_relaxed)) {
    if (active_) detail::begin_run();
  }
  ~Run() {
    if (active_) detail::end_run();
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

 private:
  bool active_;
};

/// The run open on the calling thread and the region open in it, to hand to work that runs
/// on another thread (a pool task, std::async, a coroutine resumed elsewhere). Copyable; an
/// empty context (no run was open) attaches nothing.
class RunContext {
 public:
  RunContext() noexcept = default;
  /// The calling thread's open run; on a thread inside an AttachedRun, the run it works for.
  static RunContext current() noexcept {
    RunContext context;
    if (detail::g_enabled.load(std::memory_order_relaxed)) context.run_ = detail::current_run();
    return context;
  }
  explicit operator bool() const noexcept { return run_.run != 0; }

 private:
  friend class AttachedRun;
  detail::RunRef run_;
};

/// On the thread that does handed-over work: while it lives, regions entered on this
/// thread count toward the context's run (its `dispatched` rows), nested under the region
/// that was open when the context was taken. On a thread with a Run of its own open, or the
/// context's own thread, it changes nothing: those regions are in a run already.
class AttachedRun {
 public:
  explicit AttachedRun(const RunContext& context) noexcept
      : active_(context && detail::attach_run(context.run_)) {}
  ~AttachedRun() {
    if (active_) detail::end_run();
  }
  AttachedRun(const AttachedRun&) = delete;
  AttachedRun& operator=(const AttachedRun&) = delete;

 private:
  bool active_;
};

}  // namespace enabled_v2

#define PERFGATE_PROBE_CONCAT_(a, b) a##b
#define PERFGATE_PROBE_CONCAT(a, b) PERFGATE_PROBE_CONCAT_(a, b)
// `"" name` compiles only when `name` is a string literal: a variable would be registered
// once with whatever it held on the first call and silently reused (use NamedRegion).
#define PERFGATE_PROBE_REGION_(name, n)                                                \
  static const std::uint32_t PERFGATE_PROBE_CONCAT(perfgate_probe_site_, n) =          \
      ::perfgate::probe::detail::register_site("" name, __FILE__, __LINE__, __func__); \
  const ::perfgate::probe::Region PERFGATE_PROBE_CONCAT(perfgate_probe_region_, n) {   \
    PERFGATE_PROBE_CONCAT(perfgate_probe_site_, n)                                     \
  }
/// Times the rest of the enclosing scope as region `name`, a string literal (a name known
/// only at run time needs perfgate::probe::NamedRegion).
#define PERFGATE_REGION(name) PERFGATE_PROBE_REGION_(name, __COUNTER__)

#else
inline namespace disabled_v2 {
class Run {
 public:
  // User-provided so that `perfgate::probe::Run run;` does not warn as an unused variable.
  Run() noexcept {}
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
};
class NamedRegion {
 public:
  explicit NamedRegion(std::string_view) noexcept {}
  NamedRegion(const NamedRegion&) = delete;
  NamedRegion& operator=(const NamedRegion&) = delete;
};
class RunContext {
 public:
  static RunContext current() noexcept { return {}; }
  explicit operator bool() const noexcept { return false; }
};
class AttachedRun {
 public:
  explicit AttachedRun(const RunContext&) noexcept {}
  AttachedRun(const AttachedRun&) = delete;
  AttachedRun& operator=(const AttachedRun&) = delete;
};
}  // namespace disabled_v2
   // Nothing is timed, but a name that is not a string literal is refused here too, so that a
   // program compiles the same way with the probe on and off.
#define PERFGATE_REGION(name) \
  static_assert(sizeof("" name) > 0, "PERFGATE_REGION takes a string literal")
#endif

}  // namespace perfgate::probe
