// Links the shared variant of the probe, perfgate::probe_shared.
#include <perfgate/probe.hpp>

int main() {
  perfgate::probe::Run run;
  PERFGATE_REGION("shared_region");
}
