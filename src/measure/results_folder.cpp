#include "measure/results_folder.hpp"

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
                        ".json", pretty_json(to_json(record)));
}

}  // namespace perfgate
