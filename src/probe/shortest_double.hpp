#pragma once
// The probe's own double-to-text conversion for its report: the fewest digits that read
// back as the same double, laid out as std::to_chars(double) lays them out (plain or with
// an exponent, whichever is shorter; plain on a tie). Not libstdc++'s to_chars: its first
// use in a process faults in three pages of code and tables (Ryu's), about 70 µs of the
// report a small program writes at exit on the machine the probe's goal is measured on.
//
// Grisu2 (Loitsch, "Printing floating-point numbers quickly and accurately with
// integers", PLDI 2010): exact integer arithmetic on 64-bit significands and a table of 79
// cached powers of ten. Every result reads back as the input, in at most 17 significant
// digits. It keeps a margin of one 64-bit unit from each rounding boundary, so when the
// fewest digits lie within it (about 1 double in 1,200) it writes more digits than the
// fewest, or another last digit of the same length.

namespace perfgate::probe::detail {

/// Longest text write_shortest produces ("-2.2250738585072014e-308").
inline constexpr int kShortestDoubleChars = 25;

/// Writes finite `value` at `out` (room for kShortestDoubleChars) and returns the end.
char* write_shortest(char* out, double value) noexcept;

}  // namespace perfgate::probe::detail
