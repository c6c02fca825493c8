#include "ab/checkout_commit.hpp"

#include "measure/command_capture.hpp"

namespace perfgate {
namespace {

/// git answers in milliseconds; the limit only keeps a broken one from hanging `ab`.
constexpr double kGitLimitS = 30;

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

std::optional<Json> describe_checkout_commit(const std::filesystem::path& dir) {
  const CommandOutput head = capture_command({"git", "rev-parse", "HEAD"}, dir, kGitLimitS);
  if (!head.started || head.exit_status != 0) return std::nullopt;
  const CommandOutput status =
      capture_command({"git", "status", "--porcelain", "--untracked-files=no"}, dir, kGitLimitS);
  Json out = {{"commit", first_line(head.out)}};
  out["dirty"] = status.exit_status == 0 ? Json(!status.out.empty()) : Json(nullptr);
  return out;
}

}  // namespace perfgate
