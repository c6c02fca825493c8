#include "bisect/sample_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "measure/exclusive_file.hpp"
#include "model/error.hpp"

namespace perfgate::bisect {
namespace {

namespace fs = std::filesystem;

Error io_error(const fs::path& file, const std::string& what) {
  return Error(ExitCode::kIoError, file.string() + ": cannot " + what + ": " +
                                       std::strerror(errno) + ". Check free space and permissions");
}

std::string line_of(const LoggedRun& run) {
  Json line = {{"commit", run.commit}};
  if (run.value) {
    line["value"] = *run.value;
  } else {
    line["failed"] = run.failure;
  }
  return line.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

/// Replaces `file` with `text` whole: a temporary file beside it, renamed over it.
void rewrite(const fs::path& file, const std::string& text) {
  const fs::path temporary = file.parent_path() / (std::string(kTemporaryFilePrefix) + "samples");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw io_error(temporary, "write");
  }
  fs::rename(temporary, file);
}

std::FILE* open_append(const fs::path& file) {
  std::FILE* stream = std::fopen(file.c_str(), "ae");
  if (stream == nullptr) throw io_error(file, "open for appending");
  return stream;
}

}  // namespace

SampleLog::SampleLog(fs::path file, std::FILE* stream, Json header)
    : file_(std::move(file)), stream_(stream), header_(std::move(header)) {}

SampleLog::SampleLog(SampleLog&& other) noexcept
    : file_(std::move(other.file_)),
      stream_(other.stream_),
      header_(std::move(other.header_)),
      pending_(std::move(other.pending_)),
      replayed_(other.replayed_),
      kept_lines_(other.kept_lines_) {
  other.stream_ = nullptr;
}

SampleLog::~SampleLog() {
  if (stream_ != nullptr) std::fclose(stream_);
}

SampleLog SampleLog::create(const fs::path& file, const Json& header) {
  if (!create_file_exclusively(file, header.dump() + "\n")) {
    throw Error(ExitCode::kIoError, file.string() + ": already exists");
  }
  return SampleLog(file, open_append(file), header);
}

SampleLog SampleLog::resume(const fs::path& file, const Json& header) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput, file.string() +
                                        ": no bisection to resume here. Run the same command "
                                        "without --resume to start one");
  }
  std::string line;
  std::getline(in, line);
  Json logged;
  try {
    logged = Json::parse(line);
  } catch (const Json::exception&) {
    throw Error(ExitCode::kDataError, file.string() +
                                          ": line 1 is not the header of a bisection. Start a new "
                                          "bisection with another --out");
  }
  for (const auto& [key, value] : header.items()) {
    if (!logged.contains(key) || logged[key] != value) {
      throw Error(ExitCode::kDataError,
                  file.string() + ": holds a bisection with " + key + " " +
                      logged.value(key, Json(nullptr)).dump() + ", not " + value.dump() +
                      ". Resume it with the flags it was started with, or start a new one "
                      "with another --out");
    }
  }
  SampleLog log(file, nullptr, header);
  std::vector<std::string> lines;
  for (std::string text; std::getline(in, text);) lines.push_back(text);
  // A last line without its newline was torn by a kill: it is not a run.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    Json entry;
    try {
      entry = Json::parse(lines[i]);
      LoggedRun run;
      run.commit = entry.at("commit").get<std::string>();
      if (entry.contains("value")) {
        run.value = entry.at("value").get<double>();
      } else {
        run.failure = entry.at("failed").get<std::string>();
      }
      log.pending_.push_back(std::move(run));
    } catch (const Json::exception&) {
      if (i + 1 == lines.size()) break;  // torn by a kill while it was written
      throw Error(ExitCode::kDataError,
                  file.string() + ": line " + std::to_string(i + 2) +
                      " is not a run of the bisection. Start a new bisection with another --out");
    }
  }
  log.kept_lines_ = 0;
  // The torn line, if any, goes: the file is rewritten with the runs read.
  std::string text = header.dump() + "\n";
  for (const LoggedRun& run : log.pending_) text += line_of(run);
  rewrite(file, text);
  log.stream_ = open_append(file);
  return log;
}

void SampleLog::append(const LoggedRun& run) {
  const std::string line = line_of(run);
  if (std::fwrite(line.data(), 1, line.size(), stream_) != line.size() ||
      std::fflush(stream_) != 0) {
    throw io_error(file_, "append to");
  }
  ++kept_lines_;
}

void SampleLog::discard_pending() {
  if (pending_.empty()) return;
  pending_.clear();
  // The file keeps the header and the runs replayed or appended so far.
  std::ifstream in(file_, std::ios::binary);
  std::string text;
  std::string line;
  for (std::size_t i = 0; i <= replayed_ + kept_lines_ && std::getline(in, line); ++i) {
    text += line + "\n";
  }
  in.close();
  std::fclose(stream_);
  stream_ = nullptr;
  rewrite(file_, text);
  stream_ = open_append(file_);
}

}  // namespace perfgate::bisect
