#include "measure/scratch_folder.hpp"

#include <stdlib.h>

#include "model/error.hpp"

namespace perfgate {

namespace fs = std::filesystem;

ScratchFolder::ScratchFolder(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(ExitCode::kIoError, "cannot create a temporary folder in " +
                                        fs::temp_directory_path().string() +
                                        ". Check free space, or set TMPDIR");
  }
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace perfgate
