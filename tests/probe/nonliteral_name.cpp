// Compiled by the test suite, not linked: PERFGATE_REGION with a name that is not a string
// literal must not compile (NAMED_BY_LITERAL is the control that must). A name that changes
// at run time needs perfgate::probe::NamedRegion.
#include <string>

#include "perfgate/probe.hpp"

void region_named_at_run_time(const std::string& name) {
#ifdef NAMED_BY_LITERAL
  (void)name;
  PERFGATE_REGION("a literal");
#else
  PERFGATE_REGION(name.c_str());
#endif
}
