#include "store/postgres_url.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/error.hpp"

namespace perfgate {
namespace {

constexpr std::string_view kSchemes[] = {"postgresql://", "postgres://"};

/// The parameters whose value is a secret: libpq takes a password from either.
constexpr std::array<std::string_view, 2> kSecretKeys = {"password", "sslpassword"};

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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// libpq's decoding of every part of a URI: %XX is the byte XX, and any other '%' is an
/// error (nullopt), as libpq refuses it.
std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int high = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

/// Percent-encodes every byte but the unreserved ones and `keep`: the canonical form
/// perfgate prints, which libpq reads back as the same value.
std::string percent_encoded(std::string_view text, std::string_view keep) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~' ||
        keep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out;
}

/// A PostgreSQL URL as libpq reads it: postgresql://[user[:password]@][hosts][/dbname]
/// [?key=value&...], every part percent-decoded. The user part ends at the first '@'
/// before any '/', as libpq looks for it.
struct PostgresUrlParts {
  std::string scheme;  ///< "postgresql://" or "postgres://", lower case
  std::optional<std::string> user;
  bool has_password = false;
  std::string hosts;  ///< host[:port][,host[:port]...], decoded
  std::optional<std::string> dbname;
  std::vector<std::pair<std::string, std::string>> parameters;  ///< decoded, in order
};

/// Why a URL cannot be read safely; its text is never part of the reason.
struct Unreadable {
  std::string reason;
};

std::variant<PostgresUrlParts, Unreadable> parse(std::string_view url) {
  PostgresUrlParts parts;
  const std::size_t start = scheme_length(url);
  parts.scheme = std::string(url.substr(0, start));
  std::transform(parts.scheme.begin(), parts.scheme.end(), parts.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view rest = url.substr(start);
  const std::size_t user_end = rest.find_first_of("@/");
  if (user_end != std::string_view::npos && rest[user_end] == '@') {
    const std::string_view userinfo = rest.substr(0, user_end);
    const std::size_t colon = userinfo.find(':');
    const auto user = percent_decoded(userinfo.substr(0, colon));
    if (!user) return Unreadable{"its user name has a '%' that is not followed by two hex digits"};
    if (!user->empty()) parts.user = *user;
    parts.has_password = colon != std::string_view::npos;
    rest = rest.substr(user_end + 1);
  }
  const std::size_t hosts_end = rest.find_first_of("/?");
  const auto hosts = percent_decoded(rest.substr(0, hosts_end));
  if (!hosts) return Unreadable{"its host has a '%' that is not followed by two hex digits"};
  parts.hosts = *hosts;
  rest = hosts_end == std::string_view::npos ? std::string_view() : rest.substr(hosts_end);
  // An '@' past the host: a user name or password holding '/' that libpq would read as a
  // host and echo in its error. Nothing after the host legitimately holds a raw '@'.
  if (rest.find('@') != std::string_view::npos) {
    return Unreadable{
        "it has an '@' after its host (a user name or password that holds '/' must be "
        "percent-encoded, and a password never goes in the URL)"};
  }
  if (!rest.empty() && rest.front() == '/') {
    const std::size_t query = rest.find('?');
    const auto dbname = percent_decoded(
        rest.substr(1, query == std::string_view::npos ? std::string_view::npos : query - 1));
    if (!dbname)
      return Unreadable{"its database name has a '%' that is not followed by two hex digits"};
    if (!dbname->empty()) parts.dbname = *dbname;
    rest = query == std::string_view::npos ? std::string_view() : rest.substr(query);
  }
  if (!rest.empty() && rest.front() == '?') {
    rest.remove_prefix(1);
    while (!rest.empty()) {
      const std::size_t end = rest.find('&');
      const std::string_view parameter = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      if (parameter.empty()) continue;
      const std::size_t equals = parameter.find('=');
      if (equals == std::string_view::npos) {
        return Unreadable{"a query parameter has no '=' (write key=value)"};
      }
      const auto key = percent_decoded(parameter.substr(0, equals));
      const auto value = percent_decoded(parameter.substr(equals + 1));
      if (!key || !value) {
        return Unreadable{"a query parameter has a '%' that is not followed by two hex digits"};
      }
      parts.parameters.emplace_back(*key, *value);
    }
  }
  return parts;
}

/// In any case: libpq refuses "PASSWORD" as an unknown key, but its value is a password
/// all the same, and must not be shown.
bool is_secret_key(const std::string& key) {
  std::string lower = key;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(kSecretKeys.begin(), kSecretKeys.end(), lower) != kSecretKeys.end();
}

/// The canonical text of the parts, every secret as "***".
std::string canonical(const PostgresUrlParts& parts) {
  std::string out = parts.scheme;
  if (parts.user || parts.has_password) {
    out += percent_encoded(parts.user.value_or(""), "");
    if (parts.has_password) out += ":***";
    out += '@';
  }
  out += percent_encoded(parts.hosts, ":,[]");
  if (parts.dbname) out += "/" + percent_encoded(*parts.dbname, "");
  for (std::size_t i = 0; i < parts.parameters.size(); ++i) {
    const auto& [key, value] = parts.parameters[i];
    out += (i == 0 ? "?" : "&") + percent_encoded(key, "") + "=" +
           (is_secret_key(key) ? "***" : percent_encoded(value, "/:,"));
  }
  return out;
}

}  // namespace

bool is_postgres_url(std::string_view url) {
  return scheme_length(url) != 0;
}

std::string redact_postgres_url(std::string_view url) {
  const auto parsed = parse(url);
  if (const auto* parts = std::get_if<PostgresUrlParts>(&parsed)) return canonical(*parts);
  // Not readable: nothing of it is shown, since any part might be a secret.
  return std::string(url.substr(0, scheme_length(url))) + "(not shown)";
}

void refuse_password_in_url(std::string_view url) {
  const auto parsed = parse(url);
  if (const auto* unreadable = std::get_if<Unreadable>(&parsed)) {
    throw Error(ExitCode::kUsage,
                "the PostgreSQL store URL cannot be read safely: " + unreadable->reason +
                    ". It is not shown, in case it holds a secret. Write "
                    "postgresql://[USER@]HOST[:PORT]/DATABASE[?KEY=VALUE&...]");
  }
  const auto& parts = std::get<PostgresUrlParts>(parsed);
  std::vector<std::string> secrets;
  if (parts.has_password) secrets.emplace_back("a password after the user name");
  for (const auto& [key, value] : parts.parameters) {
    if (is_secret_key(key)) secrets.push_back("the parameter " + key);
  }
  if (secrets.empty()) return;
  std::string named;
  for (std::size_t i = 0; i < secrets.size(); ++i) {
    named += (i == 0 ? "" : i + 1 == secrets.size() ? " and " : ", ") + secrets[i];
  }
  throw Error(ExitCode::kUsage,
              "store URL '" + canonical(parts) + "' carries a password (" + named +
                  "). Leave it out of the URL and put it in ~/.pgpass (or the file PGPASSFILE "
                  "names), in PGPASSWORD, or in a service file (PGSERVICEFILE): libpq reads it "
                  "from there, and it never appears in a command line, a log or a record");
}

}  // namespace perfgate
