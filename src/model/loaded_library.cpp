#include "model/loaded_library.hpp"

#include <dlfcn.h>

namespace perfgate {

LoadedLibrary::LoadedLibrary(const std::string& library, const std::string& needed_for,
                             const std::string& fix)
    : library_(library), fix_(fix) {
  // RTLD_LOCAL: its symbols are reached through address() only, never interposed on
  // perfgate's or another library's.
  handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    throw Error(ExitCode::kIoError, library + ": cannot be loaded (" +
                                        (reason != nullptr ? reason : "unknown reason") +
                                        "); it is needed for " + needed_for + ". " + fix);
  }
}

void* LoadedLibrary::address(const char* name) const {
  dlerror();
  void* found = dlsym(handle_, name);
  if (found == nullptr) {
    throw Error(ExitCode::kIoError, library_ + ": has no function " + name +
                                        ": it is not the version perfgate was built against. " +
                                        fix_);
  }
  return found;
}

}  // namespace perfgate
