/* memory_child MB: allocates MB MiB, writes every page so that all of it is resident, and
 * exits 0. Plain C without sanitizers, so its resident set is its own. */
#include <stdlib.h>

int main(int argc, char** argv) {
  const size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 0) << 20;
  if (bytes == 0) return 0;
  volatile char* block = malloc(bytes);
  if (block == NULL) return 1;
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 1;
  return block[bytes / 2] == 1 ? 0 : 1;
}
