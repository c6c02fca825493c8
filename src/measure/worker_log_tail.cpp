#include "measure/worker_log_tail.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

namespace perfgate {

std::string last_lines(const std::filesystem::path& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || count == 0) return "";
  const std::streamoff size = in.tellg();
  std::streamoff start = size;
  std::string tail;
  constexpr std::streamoff kChunk = 64 * 1024;
  // Read backwards in chunks until enough newlines (one more than lines, for the cut).
  while (start > 0 &&
         static_cast<std::size_t>(std::count(tail.begin(), tail.end(), '\n')) <= count) {
    const std::streamoff step = std::min(kChunk, start);
    start -= step;
    std::string chunk(static_cast<std::size_t>(step), '\0');
    in.seekg(start);
    in.read(chunk.data(), step);
    tail = chunk + tail;
  }
  std::size_t lines = 0;
  std::size_t pos = tail.size();
  if (pos > 0 && tail[pos - 1] == '\n') --pos;  // a final newline ends the last line
  while (pos > 0) {
    if (tail[pos - 1] == '\n' && ++lines == count) break;
    --pos;
  }
  return tail.substr(pos);
}

}  // namespace perfgate

namespace perfgate {

void print_worker_log_tail(std::ostream& out, const std::string& benchmark_id,
                           const std::filesystem::path& worker_log_path, std::size_t lines) {
  if (worker_log_path.empty() || lines == 0) return;
  const std::string prefix = "---- " + benchmark_id + ": ";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(worker_log_path, ec) ||
      !std::ifstream(worker_log_path, std::ios::binary)) {
    out << prefix << "worker log " << worker_log_path.string() << " cannot be read ----\n";
    return;
  }
  const std::string tail = last_lines(worker_log_path, lines);
  if (tail.empty()) {
    out << prefix << "worker log " << worker_log_path.string() << " is empty ----\n";
    return;
  }
  out << prefix << "last " << lines << " lines of " << worker_log_path.string() << " ----\n"
      << tail << (tail.back() == '\n' ? "" : "\n") << "---- end of worker log ----\n";
}

}  // namespace perfgate
