#pragma once
// A shared library opened with dlopen on first use. libpq (postgresql:// stores) and libgit2
// (history, local git metadata) pull in some thirty further libraries; linked normally, every
// perfgate process mapped and relocated them at start, 3.8 ms and 4.7 MB before any work
// (`make bench`, "Process start"). Opened on first use, only the commands that need them
// pay. perfgate calls them through the shims in src/store/libpq_calls.cpp and
// src/history/libgit2_calls.cpp, which keep each library's own declarations.
#include <string>

#include "model/error.hpp"

namespace perfgate {

class LoadedLibrary {
 public:
  /// Opens `library` (a soname such as "libpq.so.5", or a path). Error(kIoError) when it
  /// cannot be opened: the message names it, what needs it (`needed_for`) and `fix`, a
  /// sentence saying how to get it ("Install Debian's libpq5 package.").
  LoadedLibrary(const std::string& library, const std::string& needed_for, const std::string& fix);
  ~LoadedLibrary() = default;  // left open: its functions stay in use until exit
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  /// The function called `name`, as a pointer of type `Function`; Error(kIoError) when
  /// the library lacks it (a different version than perfgate was built against), with
  /// the same fix.
  template <typename Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(address(name));
  }

 private:
  void* address(const char* name) const;

  void* handle_ = nullptr;
  std::string library_;
  std::string fix_;
};

}  // namespace perfgate

/// For a shim of a library's functions: declares `struct Calls`, one pointer per function
/// of LIST (an X-macro list of names), and `const Calls& calls()`, which opens LIBRARY at
/// its first call and resolves every function at once, so that a library lacking one
/// fails before any of them has been used. Use it inside an unnamed namespace.
#define PERFGATE_LAZY_LIBRARY(LIST, LIBRARY, NEEDED_FOR, FIX)                   \
  struct Calls {                                                                \
    LIST(PERFGATE_LAZY_DECLARE)                                                 \
  };                                                                            \
  const Calls& calls() {                                                        \
    static const Calls resolved = [] {                                          \
      static const ::perfgate::LoadedLibrary library(LIBRARY, NEEDED_FOR, FIX); \
      Calls functions{};                                                        \
      LIST(PERFGATE_LAZY_RESOLVE)                                               \
      return functions;                                                         \
    }();                                                                        \
    return resolved;                                                            \
  }
#define PERFGATE_LAZY_DECLARE(name) decltype(&::name) name;
#define PERFGATE_LAZY_RESOLVE(name) functions.name = library.function<decltype(&::name)>(#name);
