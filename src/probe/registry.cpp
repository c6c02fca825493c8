#include "probe/registry.hpp"

#include <cstdlib>
#include <cstring>

#include "perfgate/probe.hpp"
#include "probe/report_writer.hpp"
#include "probe/thread_state.hpp"
#include "probe/tick_clock.hpp"

namespace perfgate::probe::detail {

std::atomic<bool> g_enabled{true};
std::atomic<bool> g_trace{false};

namespace {

/// A name as one step of a region id: ids are paths joined by '/', so a '/' inside a name
/// (and the '%' that escapes it) is percent-encoded, and an empty name gets a visible one;
/// otherwise "a/b" entered at the top would collide with "b" entered inside "a".
std::string id_step(const std::string& name) {
  if (name.empty()) return "(unnamed)";
  std::string step;
  for (const char c : name) {
    if (c == '%') {
      step += "%25";
    } else if (c == '/') {
      step += "%2F";
    } else {
      step += c;
    }
  }
  return step;
}

}  // namespace

std::uint32_t Registry::region_for(std::uint32_t parent, std::uint32_t site) {
  const std::string& name = sites[site].name;
  const auto [it, inserted] =
      region_by_path.try_emplace({parent, name}, static_cast<std::uint32_t>(regions.size()));
  if (inserted) {
    RegionInfo info;
    info.name = name;
    info.parent = parent;
    info.site = site;
    if (parent == kNoRegion) {
      info.id = id_step(name);
    } else {
      info.id = regions[parent].id + "/" + id_step(name);
      info.depth = regions[parent].depth + 1;
    }
    regions.push_back(std::move(info));
  }
  return it->second;
}

namespace {

bool env_is(const char* name, const char* value) {
  const char* set = std::getenv(name);
  return set != nullptr && std::strcmp(set, value) == 0;
}

void write_report_at_exit() {
  const char* path = std::getenv("PERFGATE_PROBE_OUT");
  if (path == nullptr || *path == '\0') return;
  write_report(path, ReportMoment::kExit);
}

Registry* make_registry() {
  auto* r = new Registry;
  if (env_is("PERFGATE_PROBE", "0")) g_enabled.store(false);
  if (env_is("PERFGATE_PROBE_TRACE", "1")) g_trace.store(true);
  choose_clock();
  r->anchor_steady_ns = steady_ns();
  r->anchor_ticks = now_ticks();
  std::atexit(write_report_at_exit);
  return r;
}

// Made while the program starts, so that PERFGATE_PROBE=0 applies before the first region
// and a program that never reaches a region still leaves a report.
[[maybe_unused]] const Registry& g_made_at_start = registry();

}  // namespace

Registry& registry() {
  static Registry* const r = make_registry();
  return *r;
}

std::uint32_t register_site(const char* name, const char* file, int line, const char* function) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.sites.push_back(Site{name, file, line, function});
  return static_cast<std::uint32_t>(r.sites.size() - 1);
}

}  // namespace perfgate::probe::detail

namespace perfgate::probe {

void set_enabled(bool on) noexcept {
  detail::g_enabled.store(on);
}
bool enabled() noexcept {
  return detail::g_enabled.load();
}
void set_trace(bool on) noexcept {
  detail::g_trace.store(on);
}

void set_thread_name(std::string_view name) {
  detail::ThreadState& state = detail::this_thread_state();
  detail::Registry& r = detail::registry();
  const std::lock_guard lock(r.mutex);
  state.name = std::string(name);
}

bool flush(const std::string& path) {
  return detail::write_report(path, detail::ReportMoment::kFlush);
}

}  // namespace perfgate::probe
