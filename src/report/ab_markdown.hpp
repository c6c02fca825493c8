#pragma once
// report.md of `perfgate ab`: a machine/method table, then per scenario its verdict, the
// reasons, and a comparison table (base, head, delta, budget, per-pair evidence).
#include <string>

#include "ab/ab_results.hpp"

namespace perfgate {

std::string render_ab_markdown(const AbReport& report);

}  // namespace perfgate
