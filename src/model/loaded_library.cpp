#include "model/loaded_library.hpp"

#include <dlfcn.h>

namespace perfgate {

LoadedLibrary::LoadedLibrary(const char* soname, const char* needed_for, const char* package)
    : soname_(soname), package_(package) {
  // RTLD_LOCAL: its symbols are reached through address() only, never interposed on
  // perfgate's or another library's.
  handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    throw Error(ExitCode::kIoError, std::string(soname) + ": cannot be loaded (" +
                                        (reason != nullptr ? reason : "unknown reason") +
                                        "); it is needed for " + needed_for +
                                        ". Install Debian's " + package + " package.");
  }
}

void* LoadedLibrary::address(const char* name) const {
  dlerror();
  void* found = dlsym(handle_, name);
  if (found == nullptr) {
    throw Error(ExitCode::kIoError, soname_ + ": has no function " + name +
                                        ": it is not the version perfgate was built against. "
                                        "Install the " +
                                        package_ + " package of the build machine's release.");
  }
  return found;
}

}  // namespace perfgate
