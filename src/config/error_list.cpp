#include "config/error_list.hpp"

namespace perfgate {

void ErrorList::throw_if_any() const {
  if (errors_.empty()) return;
  std::string message;
  for (const auto& error : errors_) {
    if (!message.empty()) message += "\n";
    message += error.what();
  }
  throw Error(errors_.front().code(), message);
}

}  // namespace perfgate
