#include "report/worker_log_copy.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "measure/benchmark_runner.hpp"
#include "measure/results_folder.hpp"
#include "report/markdown.hpp"

namespace perfgate {
std::string worker_log_markdown(const std::string& benchmark_id,
                                const std::filesystem::path& worker_log,
                                const std::string& log_text) {
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(log_text) + 1), '`');
  std::string out = "# Worker log of " + markdown_cell(benchmark_id) + "\n\n";
  out += "Copied from " + markdown_code_span(worker_log.string()) + ".\n\n";
  out += fence + "text\n" + log_text;
  if (!log_text.empty() && log_text.back() != '\n') out += '\n';
  out += fence + "\n";
  return out;
}

std::filesystem::path copy_worker_log_to_reports(const std::filesystem::path& worker_log,
                                                 const std::string& benchmark_id,
                                                 const std::string& stamp,
                                                 const std::filesystem::path& reports_dir) {
  if (worker_log.empty()) return {};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(worker_log, ec)) return {};
  std::ifstream in(worker_log, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || in.bad()) return {};
  return write_new_file(reports_dir, "worker_" + file_slug(benchmark_id) + "_" + stamp, ".md",
                        worker_log_markdown(benchmark_id, worker_log, text.str()));
}

}  // namespace perfgate
