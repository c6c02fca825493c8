// Memory-heavy example that spawns a child: the parent holds MB/2 and starts a child that
// holds MB, both at once, so the tree's peak is about 1.5 x MB, more than either process.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

std::vector<char> touch(long megabytes) {
  std::vector<char> block(static_cast<std::size_t>(megabytes) << 20);
  for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = static_cast<char>(i);
  return block;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::strcmp(argv[1], "--child") == 0) {
    const auto block = touch(std::atol(argv[2]));
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    return block[4096] == 0 ? 0 : 0;
  }
  const long megabytes = argc > 1 ? std::atol(argv[1]) : 64;
  const pid_t child = fork();
  if (child == 0) {
    const std::string size = std::to_string(megabytes);
    execl("/proc/self/exe", argv[0], "--child", size.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto block = touch(megabytes / 2);
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("parent held %ld MB, child held %ld MB\n", megabytes / 2, megabytes);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
