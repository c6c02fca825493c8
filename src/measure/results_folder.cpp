#include "measure/results_folder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "measure/benchmark_runner.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const fs::path& path, const std::string& what) {
  throw Error(ExitCode::kIoError,
              path.string() + ": " + what + ": " + std::strerror(errno) +
                  ". Check that the results folder is writable and the disk has space.");
}

void write_all(int fd, const std::string& text, const fs::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_error(path, "cannot write");
    done += static_cast<std::size_t>(n);
  }
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
  const fs::path temp = dir / (".tmp-" + stem + "-" + std::to_string(::getpid()));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) io_error(temp, "cannot create");
  try {
    write_all(fd, text, temp);
    if (::fsync(fd) != 0) io_error(temp, "cannot flush");
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::close(fd);

  // link() fails with EEXIST instead of replacing, which rename() would do silently.
  for (int suffix = 1;; ++suffix) {
    std::string name = stem;
    if (suffix > 1) name.append("-").append(std::to_string(suffix));
    const fs::path target = dir / name.append(extension);
    if (::link(temp.c_str(), target.c_str()) == 0) {
      ::unlink(temp.c_str());
      return target;
    }
    if (errno != EEXIST) {
      const int saved = errno;
      ::unlink(temp.c_str());
      errno = saved;
      io_error(target, "cannot create");
    }
  }
}

fs::path write_raw_record(const fs::path& results_dir, const RawRecord& record,
                          const std::string& file_stamp) {
  return write_new_file(results_dir,
                        "perf_" + file_slug(record.identity.benchmark_id) + "_" + file_stamp,
                        ".json", pretty_json(to_json(record)));
}

}  // namespace perfgate
