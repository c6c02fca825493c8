#include "cli/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "model/error.hpp"

namespace perfgate {
namespace fs = std::filesystem;

void check_output_file(const std::string& path, const std::string& flag, bool force) {
  const fs::path target = fs::absolute(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    throw Error(ExitCode::kUsage, path + ": is a folder; " + flag +
                                      " names the file to write. Add a file name, e.g. " +
                                      (target / "report.md").string());
  }
  if (fs::exists(target, ec) && !force) {
    throw Error(ExitCode::kUsage,
                path + ": already exists. Pass --force to replace it, or choose another " + flag);
  }
  if (!fs::is_directory(target.parent_path(), ec)) {
    throw Error(ExitCode::kNoInput, path + ": the folder " + target.parent_path().string() +
                                        " does not exist. Create it first, or choose another " +
                                        flag);
  }
}

void write_output_file(const std::string& path, const std::string& flag, const std::string& text,
                       bool force) {
  check_output_file(path, flag, force);
  const fs::path target = fs::absolute(path);
  const fs::path temporary = target.parent_path() / ("." + target.filename().string() + ".tmp-" +
                                                     std::to_string(::getpid()));
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    const int error = errno;
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error(ExitCode::kIoError, path + ": cannot write the file (" + std::strerror(error) +
                                        "). Check free space and permissions");
  }
  bool placed = false;
  if (force) {
    placed = std::rename(temporary.c_str(), target.c_str()) == 0;
  } else {
    // link() fails when the name is taken, so a file created since the check survives.
    placed = ::link(temporary.c_str(), target.c_str()) == 0;
  }
  const int error = errno;
  std::error_code ignored;
  if (!force || !placed) fs::remove(temporary, ignored);
  if (!placed) {
    if (error == EEXIST) check_output_file(path, flag, force);
    throw Error(ExitCode::kIoError, path + ": cannot write the file (" + std::strerror(error) +
                                        "). Check free space and permissions");
  }
}

}  // namespace perfgate
