#pragma once
// Helpers shared by the result-file reader tests: fixture paths and error expectations.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "model/error.hpp"

namespace perfgate::ingest {

inline std::filesystem::path ingest_fixture(const std::string& name) {
  return std::filesystem::path(PERFGATE_SOURCE_DIR) / "tests" / "fixtures" / "ingest" / name;
}

/// The message of the Error `action` throws, after checking its code; "" (and a test
/// failure) when it throws nothing.
inline std::string error_message(const std::function<void()>& action,
                                 ExitCode code = ExitCode::kDataError) {
  try {
    action();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), code) << error.what();
    return error.what();
  }
  ADD_FAILURE() << "expected an Error";
  return "";
}

}  // namespace perfgate::ingest
