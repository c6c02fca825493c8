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
  /// Opens `soname` (e.g. "libpq.so.5"). Error(kIoError) when it cannot be opened: the
  /// message names the library, what needs it (`needed_for`) and the Debian package.
  LoadedLibrary(const char* soname, const char* needed_for, const char* package);
  ~LoadedLibrary() = default;  // left open: its functions stay in use until exit
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  /// The function called `name`, as a pointer of type `Function`; Error(kIoError) when
  /// the library lacks it (a different version than perfgate was built against).
  template <typename Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(address(name));
  }

 private:
  void* address(const char* name) const;

  void* handle_ = nullptr;
  std::string soname_;
  std::string package_;
};

}  // namespace perfgate
