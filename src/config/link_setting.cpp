#include "config/link_setting.hpp"

namespace perfgate {

std::string link_setting(const ConfigValue& value, bool relative_allowed, std::string_view fix) {
  const std::string text = value.non_empty_string();
  const bool web = text.rfind("https://", 0) == 0 || text.rfind("http://", 0) == 0;
  const bool relative = relative_allowed && (text.rfind("./", 0) == 0 ||
                                             text.rfind("../", 0) == 0 || text.rfind('/', 0) == 0);
  if (!web && !relative) {
    throw value.error("'" + text + "' is not " +
                          (relative_allowed ? std::string("an http(s) address or a relative path")
                                            : std::string("an http(s) address")),
                      fix);
  }
  if (text.size() > 2000) throw value.error("is longer than 2,000 bytes", fix);
  for (const unsigned char c : text) {
    if (c <= 0x20 || c == 0x7f || c == '"' || c == '<' || c == '>') {
      throw value.error("holds a space, a quote, '<', '>' or a control character", fix);
    }
  }
  return text;
}

std::string commit_url_setting(const ConfigValue& value) {
  constexpr std::string_view fix =
      "Give the address of a commit's page with {sha} for its SHA, e.g. "
      "\"https://github.com/org/repo/commit/{sha}\"";
  std::string url = link_setting(value, false, fix);
  if (url.find("{sha}") == std::string::npos) throw value.error("has no {sha}", fix);
  return url;
}

}  // namespace perfgate
