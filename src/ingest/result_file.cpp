#include "ingest/result_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "ingest/google_benchmark_reader.hpp"
#include "ingest/gzip_text.hpp"
#include "ingest/hyperfine_reader.hpp"
#include "ingest/json_text.hpp"
#include "ingest/nvbench_fast_reader.hpp"
#include "ingest/nvbench_reader.hpp"
#include "ingest/perfgate_record_reader.hpp"
#include "ingest/pyperf_reader.hpp"
#include "ingest/seed_raw_record.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/json_reader.hpp"

namespace perfgate::ingest {
namespace {

bool has_array(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_array();
}

bool has_object(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_object();
}

std::optional<long long> schema_version(const Json& object) {
  const auto found = object.find("result_schema_version");
  if (found == object.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<long long>();
}

bool is_pyperf(const Json& object) {
  if (!has_array(object, "benchmarks")) return false;
  const Json& benchmarks = object.at("benchmarks");
  if (!benchmarks.empty())
    return benchmarks.front().is_object() && benchmarks.front().contains("runs");
  const auto version = object.find("version");
  return version != object.end() && version->is_string() && has_object(object, "metadata");
}

std::optional<ResultFormat> detect_record(const Json& object) {
  if (!object.is_object()) return std::nullopt;
  if (is_seed_raw_record(object)) return ResultFormat::kPerfgateRaw;
  const auto version = schema_version(object);
  const bool has_metrics = has_object(object, "metrics");
  if (has_metrics && version == 1 &&
      (object.contains("runs") || object.contains("perfgate_version"))) {
    return ResultFormat::kPerfgateRaw;
  }
  if (has_metrics && version == 3) return ResultFormat::kPerfgateNormalized;
  const bool legacy_version =
      !object.contains("result_schema_version") || version == 1 || version == 2;
  if (legacy_version && (object.contains("benchmark_id") || object.contains("model_id"))) {
    return ResultFormat::kPerfgateNormalized;
  }
  return std::nullopt;
}

// What the document is, in a few words, for the "unknown format" message.
std::string describe(const Json& document) {
  if (!document.is_object()) return "the top level is " + json_type_name(document);
  if (document.empty()) return "the top level is an empty object";
  std::string keys;
  std::size_t shown = 0;
  for (const auto& [key, value] : document.items()) {
    if (shown == 6) {
      keys += ", …";
      break;
    }
    keys += (shown++ == 0 ? "" : ", ") + key;
  }
  return "the top level has the keys " + keys;
}

/// A file's bytes with room after them for the fast reader's padding, never zero-filled
/// first: result files reach tens of megabytes, and clearing them costs as much as reading.
/// A large regular file is mapped rather than read: the page cache's pages are used as
/// they are, where a read() would fault in fresh pages and copy every byte into them
/// (measured on a 13 MB nvbench file: 1.6 ms mapped, 18-25 ms read).
class FileText {
 public:
  FileText() = default;
  FileText(FileText&& other) noexcept { *this = std::move(other); }
  FileText& operator=(FileText&& other) noexcept {
    if (this != &other) {
      release();
      std::swap(data_, other.data_);
      std::swap(mapping_, other.mapping_);
      std::swap(size_, other.size_);
      std::swap(capacity_, other.capacity_);
    }
    return *this;
  }
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText() { release(); }

  std::string_view view() const { return {begin(), size_}; }
  /// A mapped file, whose pages a reader may give back once read (they come back from
  /// the file if touched again).
  bool mapped() const { return mapping_ != nullptr; }
  std::size_t capacity() const { return capacity_; }
  /// Makes room for `more` bytes after the text (and the padding after those).
  char* grow(std::size_t more) {
    const std::size_t needed = size_ + more + fast_reader_padding();
    if (needed > capacity_ || mapping_ != nullptr) {
      const std::size_t capacity = std::max(needed, capacity_ * 2);
      auto data = std::make_unique_for_overwrite<char[]>(capacity);
      if (size_ > 0) std::memcpy(data.get(), begin(), size_);
      const std::size_t size = size_;
      release();
      data_ = std::move(data);
      size_ = size;
      capacity_ = capacity;
    }
    return data_.get() + size_;
  }
  /// The free bytes after the text, less the padding.
  std::size_t room() const {
    if (mapping_ != nullptr) return 0;
    return capacity_ > size_ + fast_reader_padding() ? capacity_ - size_ - fast_reader_padding()
                                                     : 0;
  }
  void added(std::size_t count) { size_ += count; }
  void assign(std::string_view text) {
    FileText copy;
    std::memcpy(copy.grow(text.size()), text.data(), text.size());
    copy.size_ = text.size();
    *this = std::move(copy);
  }
  /// Maps `size` bytes of the regular file `fd`, followed by readable zero bytes for the
  /// padding: an anonymous mapping is reserved first and the file mapped over its start,
  /// so the padding never reads past the file's last page. False when the system refuses;
  /// the caller then reads the file instead.
  bool map(int fd, std::size_t size) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t total = (size + fast_reader_padding() + page - 1) / page * page;
    void* reserved = ::mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (reserved == MAP_FAILED) return false;
    if (::mmap(reserved, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) ==
        MAP_FAILED) {
      ::munmap(reserved, total);
      return false;
    }
    release();
    mapping_ = static_cast<char*>(reserved);
    size_ = size;
    capacity_ = total;
    return true;
  }
  void release() {
    if (mapping_ != nullptr) ::munmap(mapping_, capacity_);
    mapping_ = nullptr;
    data_.reset();
    size_ = capacity_ = 0;
  }

 private:
  const char* begin() const { return mapping_ != nullptr ? mapping_ : data_.get(); }

  std::unique_ptr<char[]> data_;
  char* mapping_ = nullptr;  ///< set when the text is a mapped file (then data_ is empty)
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

/// Files from this size on are mapped: below it a read costs less than setting up a map.
constexpr off_t kMapFrom = 1 << 20;

FileText read_bytes(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw Error(ExitCode::kNoInput, name + ": cannot read: it is a folder. Name the result file");
  }
  const auto fail = [&] {
    throw Error(ExitCode::kNoInput, name + ": cannot read: " + std::strerror(errno) +
                                        ". Check the path and its permissions");
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail();
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  // One read of the whole file when its size is known; pipes are read until they end.
  FileText text;
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    if (info.st_size >= kMapFrom && text.map(fd, static_cast<std::size_t>(info.st_size))) {
      return text;
    }
    text.grow(static_cast<std::size_t>(info.st_size) + 1);  // + 1: the next read sees the end
  }
  while (true) {
    if (text.room() == 0) text.grow(1 << 16);
    const ssize_t got = ::read(fd, text.grow(0), text.room());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail();
    if (got == 0) break;
    text.added(static_cast<std::size_t>(got));
  }
  return text;
}

ResultFile read_document(const Json& document, const std::filesystem::path& path,
                         ResultFormat format) {
  switch (format) {
    case ResultFormat::kNvbench:
      return read_nvbench(document, path);
    case ResultFormat::kGoogleBenchmark:
      return read_google_benchmark(document, path);
    case ResultFormat::kHyperfine:
      return read_hyperfine(document, path);
    case ResultFormat::kPyperf:
      return read_pyperf(document, path);
    case ResultFormat::kPerfgateRaw:
    case ResultFormat::kPerfgateNormalized:
      return read_perfgate_records(document, path, format);
  }
  throw Error(ExitCode::kSoftware, "unknown result format");
}

}  // namespace

std::string_view to_string(ResultFormat format) {
  switch (format) {
    case ResultFormat::kNvbench:
      return "nvbench";
    case ResultFormat::kGoogleBenchmark:
      return "gbench";
    case ResultFormat::kHyperfine:
      return "hyperfine";
    case ResultFormat::kPyperf:
      return "pyperf";
    case ResultFormat::kPerfgateRaw:
      return "perfgate-raw";
    case ResultFormat::kPerfgateNormalized:
      return "perfgate-normalized";
  }
  return "unknown";
}

std::optional<ResultFormat> parse_result_format(std::string_view text) {
  for (const ResultFormat format :
       {ResultFormat::kNvbench, ResultFormat::kGoogleBenchmark, ResultFormat::kHyperfine,
        ResultFormat::kPyperf, ResultFormat::kPerfgateRaw, ResultFormat::kPerfgateNormalized}) {
    if (text == to_string(format)) return format;
  }
  return std::nullopt;
}

std::string_view describe_format(ResultFormat format) {
  switch (format) {
    case ResultFormat::kNvbench:
      return "an nvbench file";
    case ResultFormat::kGoogleBenchmark:
      return "a Google Benchmark file";
    case ResultFormat::kHyperfine:
      return "a hyperfine file";
    case ResultFormat::kPyperf:
      return "a pyperf file";
    case ResultFormat::kPerfgateRaw:
      return "a perfgate raw record";
    case ResultFormat::kPerfgateNormalized:
      return "a perfgate normalised record";
  }
  return "a result file";
}

bool format_has_clock(ResultFormat format) {
  return format == ResultFormat::kNvbench;
}

std::optional<ResultFormat> detect_result_format(const Json& document) {
  if (document.is_array()) {
    if (document.empty()) return std::nullopt;
    return detect_record(document.front());
  }
  if (!document.is_object()) return std::nullopt;
  if (has_array(document, "benchmarks") && has_array(document, "devices")) {
    return ResultFormat::kNvbench;
  }
  if (has_object(document, "context") && has_array(document, "benchmarks")) {
    return ResultFormat::kGoogleBenchmark;
  }
  if (is_pyperf(document)) return ResultFormat::kPyperf;
  if (has_array(document, "results")) return ResultFormat::kHyperfine;
  return detect_record(document);
}

ResultFile read_result_file(const std::filesystem::path& path, std::optional<ResultFormat> format) {
  return read_result_file(path, format, ReadOptions{});
}

ResultFile read_result_file(const std::filesystem::path& path, std::optional<ResultFormat> format,
                            const ReadOptions& options) {
  const std::string name = path.string();
  FileText bytes = read_bytes(path);
  const std::string digest = options.digest ? sha256_hex(bytes.view()) : std::string();
  if (is_gzip(bytes.view())) bytes.assign(gunzip(bytes.view(), name));
  // nvbench files are the large ones: the fast reader takes them when it can, and leaves
  // anything unusual (and every error message) to the strict reader below.
  if (!format || *format == ResultFormat::kNvbench) {
    ResultFile file;
    if (read_nvbench_fast(bytes.view(), bytes.capacity(), path, file, options.listener,
                          bytes.mapped()) == FastReadStatus::kRead) {
      file.sha256 = digest;
      return file;
    }
  }
  const Json document = parse_result_json(bytes.view(), name);
  bytes.release();  // the text is no longer needed; give its memory back early
  if (!format) format = detect_result_format(document);
  if (!format) {
    throw Error(ExitCode::kDataError,
                name + ": not a result file perfgate can read: " + describe(document) +
                    " (expected nvbench, Google Benchmark, hyperfine, pyperf JSON or a perfgate "
                    "record). Pass --format-in to say which");
  }
  ResultFile file = read_document(document, path, *format);
  file.sha256 = digest;
  return file;
}

}  // namespace perfgate::ingest
