// A shared library that links the static probe (built position-independent for this).
#include <perfgate/probe.hpp>

extern "C" void plugin_work() {
  perfgate::probe::Run run;
  PERFGATE_REGION("plugin_region");
}
