#pragma once
// A fresh, uniquely named temp folder for one test, removed afterwards. It holds a .git
// entry so find_project_config stops here and never picks up a perfgate.toml above it.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace perfgate {

class TempFolder {
 public:
  TempFolder() {
    static std::atomic<int> counter{0};
    const std::string suffix = std::to_string(::getpid()) + "-" +
                               std::to_string(std::random_device{}()) + "-" +
                               std::to_string(counter++);
    path_ = std::filesystem::temp_directory_path() / ("perfgate-test-" + suffix);
    std::filesystem::create_directories(path_ / ".git");
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `content` to `relative` (creating folders) and returns the full path.
  std::filesystem::path write(const std::filesystem::path& relative,
                              const std::string& content) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace perfgate
