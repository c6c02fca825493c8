#include "store/absent_store.hpp"

#include "model/error.hpp"

namespace perfgate {

AppendOutcome AbsentStore::append(const Attempt&, RepeatedMeasurements) {
  throw Error(ExitCode::kSoftware, "store " + url_ + " was opened for reading only");
}

void AbsentStore::approve(const std::vector<std::string>&, const std::string&, const std::string&) {
  throw Error(ExitCode::kSoftware, "store " + url_ + " was opened for reading only");
}

}  // namespace perfgate
