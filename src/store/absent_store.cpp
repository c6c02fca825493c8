#include "store/absent_store.hpp"

#include <filesystem>

#include "model/error.hpp"

namespace perfgate {

AppendOutcome AbsentStore::append(const Attempt&) {
  throw Error(ExitCode::kSoftware, "store " + url_ + " was opened for reading only");
}

void AbsentStore::approve(const std::vector<std::string>&, const std::string&, const std::string&) {
  throw Error(ExitCode::kSoftware, "store " + url_ + " was opened for reading only");
}

std::unique_ptr<Store> open_store_for_reading(const std::string& url) {
  const auto colon = url.find(':');
  const std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
  const std::string path = colon == std::string::npos ? "" : url.substr(colon + 1);
  if ((scheme == "sqlite" || scheme == "dir") && !path.empty() && !std::filesystem::exists(path)) {
    return std::make_unique<AbsentStore>(url);
  }
  return open_store(url);  // also reports a malformed URL
}

}  // namespace perfgate
