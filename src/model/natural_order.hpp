#pragma once
// Names sorted the way people read them: runs of digits compare as numbers, so
// "n=3000000" comes before "n=10000000" and "run9" before "run10".
#include <string>
#include <string_view>

namespace perfgate {

/// True when `a` sorts before `b`: text compares byte by byte, a run of digits compares by
/// its numeric value (leading zeros ignored; on a tie, fewer zeros first). A strict weak
/// order, so it can order std::sort and std::map.
bool natural_less(std::string_view a, std::string_view b);

/// natural_less as a comparator type, for std::map and std::set.
struct NaturalLess {
  bool operator()(const std::string& a, const std::string& b) const { return natural_less(a, b); }
};

}  // namespace perfgate
