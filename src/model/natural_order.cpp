#include "model/natural_order.hpp"

#include <cstddef>

namespace perfgate {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  int zeros_tie = 0;  // the first difference in leading zeros, for equal numbers
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      const std::size_t a_start = i;
      const std::size_t b_start = j;
      while (i < a.size() && a[i] == '0') ++i;
      while (j < b.size() && b[j] == '0') ++j;
      const std::size_t a_digits_start = i;
      const std::size_t b_digits_start = j;
      while (i < a.size() && is_digit(a[i])) ++i;
      while (j < b.size() && is_digit(b[j])) ++j;
      const std::string_view a_number = a.substr(a_digits_start, i - a_digits_start);
      const std::string_view b_number = b.substr(b_digits_start, j - b_digits_start);
      // Without leading zeros, a longer number is larger; equal lengths compare as text.
      if (a_number.size() != b_number.size()) return a_number.size() < b_number.size();
      if (a_number != b_number) return a_number < b_number;
      if (zeros_tie == 0) {
        const std::size_t a_zeros = a_digits_start - a_start;
        const std::size_t b_zeros = b_digits_start - b_start;
        if (a_zeros != b_zeros) zeros_tie = a_zeros < b_zeros ? -1 : 1;
      }
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (i < a.size() || j < b.size()) return j < b.size() && i == a.size();
  return zeros_tie < 0;
}

}  // namespace perfgate
