#include <cstdio>

#include "perfgate_version.hpp"

int main() {
  std::printf("perfgate %s\n", perfgate::kVersion);
  return 0;
}
