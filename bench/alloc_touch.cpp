// Allocates MB megabytes (default 200) and writes every page, so all of it is resident.
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const std::size_t bytes = static_cast<std::size_t>(argc > 1 ? std::atol(argv[1]) : 200) << 20;
  auto* block = static_cast<volatile char*>(std::malloc(bytes));
  if (block == nullptr) return 1;
  for (std::size_t i = 0; i < bytes; i += 4096) block[i] = 1;
  const int result = block[bytes / 2] == 1 ? 0 : 1;
  std::free(const_cast<char*>(block));
  return result;
}
