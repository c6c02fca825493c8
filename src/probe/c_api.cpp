// The C header's functions: thin calls into the C++ probe. C has no per-call-site statics,
// so a region name is turned into a call site through a small per-thread cache keyed by the
// name's text and (file, line) — not by the pointer alone, because a C caller may reuse one
// buffer for different names — and through the registry on a miss.

#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "perfgate/probe.h"
#include "perfgate/probe.hpp"
#include "probe/registry.hpp"
#include "probe/thread_state.hpp"

namespace perfgate::probe::detail {
namespace {

struct CachedSite {
  std::string name;
  const char* file = nullptr;
  int line = 0;
  std::uint32_t site = 0;
  bool used = false;
};

std::uint32_t site_for(const char* name, const char* file, int line, const char* function) {
  constexpr std::size_t kCacheSlots = 16;
  thread_local CachedSite cache[kCacheSlots];
  CachedSite& slot = cache[(reinterpret_cast<std::uintptr_t>(name) >> 3) % kCacheSlots];
  if (slot.used && slot.file == file && slot.line == line && slot.name == name) return slot.site;

  // The same name and location always give the same site, whichever thread asks first.
  std::uint32_t site = 0;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    site = r.dynamic_site_for(name, file, line, function);
  }
  slot.name = name;
  slot.file = file;
  slot.line = line;
  slot.site = site;
  slot.used = true;
  return site;
}

}  // namespace
}  // namespace perfgate::probe::detail

namespace detail = perfgate::probe::detail;

extern "C" {

void perfgate_probe_run_begin(void) {
  if (detail::g_enabled.load(std::memory_order_relaxed)) detail::begin_run();
}

void perfgate_probe_run_end(void) {
  detail::end_run();
}

void perfgate_probe_region_begin(const char* name) {
  perfgate_probe_region_begin_at(name, "", 0, "");
}

void perfgate_probe_region_begin_at(const char* name, const char* file, int line,
                                    const char* function) {
  if (!detail::g_enabled.load(std::memory_order_relaxed)) return;
  // A null name or location is a caller's mistake; name the region so it stays visible
  // instead of crashing the measured program.
  detail::enter_region(detail::site_for(name != nullptr ? name : "(null)",
                                        file != nullptr ? file : "", line,
                                        function != nullptr ? function : ""));
}

void perfgate_probe_region_end(void) {
  if (detail::g_enabled.load(std::memory_order_relaxed)) detail::exit_innermost_region();
}

int perfgate_probe_flush(const char* path) {
  return perfgate::probe::flush(path) ? 1 : 0;
}

void perfgate_probe_set_enabled(int enabled) {
  perfgate::probe::set_enabled(enabled != 0);
}

void perfgate_probe_set_trace(int on) {
  perfgate::probe::set_trace(on != 0);
}
}

namespace perfgate::probe::detail {

std::uint32_t dynamic_site(std::string_view name) noexcept {
  // A per-thread cache by the name's text: a NamedRegion in a loop costs a hash and a
  // compare, and the registry lock only on a name this thread has not used lately.
  struct Cached {
    std::string name;
    std::uint32_t site = 0;
    bool used = false;
  };
  constexpr std::size_t kCacheSlots = 64;
  thread_local Cached cache[kCacheSlots];
  Cached& slot = cache[std::hash<std::string_view>{}(name) % kCacheSlots];
  if (slot.used && slot.name == name) return slot.site;
  Registry& r = registry();
  std::uint32_t site = 0;
  {
    const std::lock_guard lock(r.mutex);
    site = r.dynamic_site_for(std::string(name), "", 0, "");
  }
  slot.name.assign(name);
  slot.site = site;
  slot.used = true;
  return site;
}

}  // namespace perfgate::probe::detail
