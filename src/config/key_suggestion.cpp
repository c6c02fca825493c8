#include "config/key_suggestion.hpp"

#include <algorithm>
#include <numeric>

namespace perfgate {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the classic dynamic-programming table: row[j] = distance(a[0..i), b[0..j)).
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> nearest_key(std::string_view unknown,
                                       const std::vector<std::string>& known) {
  const std::size_t limit = std::max<std::size_t>(2, unknown.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto& candidate : known) {
    const std::size_t distance = edit_distance(unknown, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string unknown_key_fix(std::string_view unknown, const std::vector<std::string>& known) {
  if (auto near = nearest_key(unknown, known)) return "Did you mean '" + *near + "'?";
  std::string list;
  for (const auto& key : known) list += (list.empty() ? "" : ", ") + key;
  return "Known keys: " + list;
}

}  // namespace perfgate
