#include "measure/results_folder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "measure/benchmark_runner.hpp"
#include "measure/exclusive_file.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const fs::path& path, const std::string& what) {
  throw Error(ExitCode::kIoError,
              path.string() + ": " + what + ": " + std::strerror(errno) +
                  ". Check that the results folder is writable and the disk has space.");
}

}  // namespace

void prepare_results_folder(const fs::path& results_dir) {
  for (const fs::path& dir : {results_dir, results_dir / "worker_logs"}) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      errno = ec.value();
      io_error(dir, "cannot create the folder");
    }
  }
}

void check_results_folder_writable(const fs::path& results_dir) {
  fs::path existing = fs::absolute(results_dir);
  std::error_code ec;
  while (!fs::exists(existing, ec) && existing.has_parent_path() &&
         existing != existing.parent_path()) {
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, ec)) {
    errno = ENOTDIR;
    io_error(existing, "cannot hold the results folder");
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) io_error(existing, "cannot be written");
}

fs::path create_run_folder(const fs::path& results_dir, const std::string& file_stamp) {
  prepare_results_folder(results_dir);
  for (int suffix = 1;; ++suffix) {
    std::string name = "run-" + file_stamp;
    if (suffix > 1) name.append("-").append(std::to_string(suffix));
    const fs::path run_dir = results_dir / name;
    std::error_code ec;
    // create_directory reports false for a folder that exists: another run took the name.
    if (!fs::create_directory(run_dir, ec)) {
      if (ec) {
        errno = ec.value();
        io_error(run_dir, "cannot create the folder");
      }
      continue;
    }
    prepare_results_folder(run_dir);
    return run_dir;
  }
}

fs::path write_new_file(const fs::path& dir, const std::string& stem, const std::string& extension,
                        const std::string& text) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    errno = ec.value();
    io_error(dir, "cannot create the folder");
  }
  for (int suffix = 1;; ++suffix) {
    std::string name = stem;
    if (suffix > 1) name.append("-").append(std::to_string(suffix));
    const fs::path target = dir / name.append(extension);
    if (create_file_exclusively(target, text)) return target;
  }
}

fs::path write_raw_record(const fs::path& results_dir, const RawRecord& record,
                          const std::string& file_stamp) {
  return write_new_file(results_dir,
                        "perf_" + file_slug(record.identity.benchmark_id) + "_" + file_stamp,
                        ".json", raw_record_text(record));
}

}  // namespace perfgate
