#pragma once
// Every reason code the comparator gives, with its short display code and the evidence it
// rests on (one table, so a new code cannot get one without the other).
#include <string_view>

#include "diff/state_comparison.hpp"

namespace perfgate::diff {

/// The evidence behind a final reason code; kNone for codes not in the table.
Evidence evidence_of(std::string_view code);

}  // namespace perfgate::diff
