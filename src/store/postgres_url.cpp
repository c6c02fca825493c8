#include "store/postgres_url.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "model/error.hpp"

namespace perfgate {
namespace {

constexpr std::string_view kSchemes[] = {"postgresql://", "postgres://"};

std::size_t scheme_length(std::string_view url) {
  for (const auto scheme : kSchemes) {
    if (url.size() >= scheme.size() &&
        std::equal(scheme.begin(), scheme.end(), url.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        })) {
      return scheme.size();
    }
  }
  return 0;
}

// Where the password of "user:password@host" lies, as [begin, end); begin == end when none.
std::pair<std::size_t, std::size_t> authority_password(std::string_view url) {
  const std::size_t start = scheme_length(url);
  const std::size_t authority_end = url.find_first_of("/?", start);
  const std::string_view authority =
      url.substr(start, authority_end == std::string_view::npos ? url.npos : authority_end - start);
  const std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return {0, 0};
  const std::size_t colon = authority.substr(0, at).find(':');
  if (colon == std::string_view::npos) return {0, 0};
  return {start + colon + 1, start + at};
}

// Each "password=value" of the query string, as [begin, end) of its value.
template <typename Visit>
void for_each_password_parameter(std::string_view url, Visit visit) {
  const std::size_t query = url.find('?', scheme_length(url));
  if (query == std::string_view::npos) return;
  std::size_t at = query + 1;
  while (at <= url.size()) {
    std::size_t end = url.find('&', at);
    if (end == std::string_view::npos) end = url.size();
    const std::string_view parameter = url.substr(at, end - at);
    constexpr std::string_view kKey = "password=";
    if (parameter.size() >= kKey.size() && parameter.substr(0, kKey.size()) == kKey) {
      visit(at + kKey.size(), end);
    }
    at = end + 1;
  }
}

}  // namespace

bool is_postgres_url(std::string_view url) {
  return scheme_length(url) != 0;
}

std::string redact_postgres_url(std::string_view url) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  if (const auto span = authority_password(url); span.first != span.second) spans.push_back(span);
  for_each_password_parameter(
      url, [&](std::size_t begin, std::size_t end) { spans.emplace_back(begin, end); });
  std::sort(spans.begin(), spans.end());
  std::string redacted;
  std::size_t at = 0;
  for (const auto& [begin, end] : spans) {
    redacted.append(url.substr(at, begin - at));
    redacted += "***";
    at = end;
  }
  redacted.append(url.substr(at));
  return redacted;
}

void refuse_password_in_url(std::string_view url) {
  bool has_password = authority_password(url).first != authority_password(url).second;
  for_each_password_parameter(url, [&](std::size_t, std::size_t) { has_password = true; });
  if (!has_password) return;
  throw Error(ExitCode::kUsage,
              "store URL '" + redact_postgres_url(url) +
                  "' carries a password. Leave it out of the URL and put it in ~/.pgpass (or "
                  "the file PGPASSFILE names), in PGPASSWORD, or in a service file "
                  "(PGSERVICEFILE): libpq reads it from there, and it never appears in a "
                  "command line, a log or a record");
}

}  // namespace perfgate
