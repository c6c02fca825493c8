#include "ab/checkout_commit.hpp"

#include "measure/local_git.hpp"

namespace perfgate {

std::optional<Json> describe_checkout_commit(const std::filesystem::path& dir) {
  // The same question `perfgate run` asks of its project folder, answered the same way.
  const auto git = read_local_git(real_host(), dir);
  if (!git) return std::nullopt;
  return Json{{"commit", git->commit}, {"dirty", git->dirty}};
}

}  // namespace perfgate
