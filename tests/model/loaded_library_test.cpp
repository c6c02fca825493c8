// LoadedLibrary: the libraries perfgate opens on first use say what is missing and how to
// get it, with the store-unavailable exit code.
#include "model/loaded_library.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(LoadedLibrary, AMissingLibraryNamesItselfWhatNeedsItAndThePackage) {
  try {
    LoadedLibrary library("libperfgate-no-such-library.so.1", "testing the loader",
                          "Install Debian's perfgate-no-such-package package.");
    FAIL() << "a library that does not exist was opened";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("libperfgate-no-such-library.so.1: cannot be loaded (", 0), 0u)
        << message;
    EXPECT_NE(message.find("); it is needed for testing the loader. Install Debian's "
                           "perfgate-no-such-package package."),
              std::string::npos)
        << message;
  }
}

TEST(LoadedLibrary, ResolvesFunctionsAndNamesOneThatIsMissing) {
  const LoadedLibrary libc("libc.so.6", "testing the loader", "Install Debian's libc6 package.");
  const auto length = libc.function<std::size_t (*)(const char*)>("strlen");
  EXPECT_EQ(length("perfgate"), 8u);
  try {
    libc.function<void (*)()>("perfgate_no_such_function");
    FAIL() << "a function that does not exist was resolved";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kIoError);
    EXPECT_EQ(std::string(error.what()),
              "libc.so.6: has no function perfgate_no_such_function: it is not the version "
              "perfgate was built against. Install Debian's libc6 package.");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
