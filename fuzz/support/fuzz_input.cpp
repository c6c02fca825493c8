#include "support/fuzz_input.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>

#include "model/error.hpp"

namespace perfgate::fuzz {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
}

fs::path make_scratch_folder() {
  // /dev/shm where there is one: every execution writes its input, and memory is faster.
  std::error_code error;
  const fs::path base =
      fs::is_directory("/dev/shm", error) ? fs::path("/dev/shm") : fs::temp_directory_path();
  std::string pattern = (base / "perfgate-fuzz-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror("fuzz: mkdtemp");
    std::abort();
  }
  const fs::path folder = pattern;
  const std::array<float, 4> samples = {1.0e-3F, 1.1e-3F, 0.9e-3F, 1.0e-3F};
  write_file(folder / "bulk.bin", reinterpret_cast<const char*>(samples.data()), sizeof samples);
  return folder;
}

const fs::path& scratch_folder() {
  static const fs::path folder = make_scratch_folder();
  static const bool cleanup_registered = [] {
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(folder, ignored);
    });
    return true;
  }();
  (void)cleanup_registered;
  return folder;
}

}  // namespace

std::filesystem::path write_input(std::string_view name, const std::uint8_t* data,
                                  std::size_t size) {
  const fs::path path = scratch_folder() / std::string(name);
  write_file(path, reinterpret_cast<const char*>(data), size);
  return path;
}

void report_unexpected_exception() {
  try {
    throw;
  } catch (const Error& error) {
    if (error.code() != ExitCode::kSoftware) {
      // For curating a corpus: why each seed was rejected, if it was.
      if (std::getenv("PERFGATE_FUZZ_SHOW_ERRORS") != nullptr) {
        std::fprintf(stderr, "fuzz: rejected (exit %d): %s\n", static_cast<int>(error.code()),
                     error.what());
      }
      return;
    }
    std::fprintf(stderr, "fuzz: internal error (exit 70) on hostile input: %s\n", error.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fuzz: exception other than perfgate::Error escaped: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "fuzz: an exception of unknown type escaped\n");
  }
  std::abort();
}

}  // namespace perfgate::fuzz
