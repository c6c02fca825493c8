#include <perfgate/probe.hpp>

int main() {
  perfgate::probe::Run run;
  PERFGATE_REGION("consumer_region");
  return 0;
}
