#include "ingest/json_text.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/error.hpp"

namespace perfgate::ingest {
namespace {

constexpr const char* kSyntaxFix =
    "Check that the tool finished writing the file (a crashed run leaves it cut short) and "
    "that it is the tool's JSON output";

// Bare tokens become strings no tool writes (a control character cannot appear unescaped
// in JSON text), which the parser callback turns back into doubles.
constexpr std::string_view kNanMark = "\"\\u0001NaN\"";
constexpr std::string_view kInfinityMark = "\"\\u0001Infinity\"";
constexpr std::string_view kMinusInfinityMark = "\"\\u0001-Infinity\"";

struct Replacement {
  std::size_t rewritten_offset;  ///< where the mark ends in the rewritten text
  std::ptrdiff_t shift;          ///< rewritten offset minus original offset after it
};

struct Position {
  std::size_t line = 1;
  std::size_t column = 1;
};

Position position_of(std::string_view text, std::size_t offset) {
  Position at;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

[[noreturn]] void fail_at(std::string_view text, std::size_t offset, const std::string& source,
                          const std::string& reason) {
  const Position at = position_of(text, offset);
  throw Error(ExitCode::kDataError, source + ":" + std::to_string(at.line) + ":" +
                                        std::to_string(at.column) + ": " + reason + ". " +
                                        kSyntaxFix);
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// True when `token` starts at `at` and is not the start of a longer word.
bool token_at(std::string_view text, std::size_t at, std::string_view token) {
  if (text.compare(at, token.size(), token) != 0) return false;
  const std::size_t end = at + token.size();
  return end == text.size() || !is_word_char(text[end]);
}

// One pass over the text: checks the nesting depth and rewrites bare non-finite tokens.
// Returns an empty string when nothing needed rewriting.
std::string rewrite_non_finite_tokens(std::string_view text, const std::string& source,
                                      std::vector<Replacement>& replacements) {
  std::string rewritten;
  std::size_t copied = 0;  // text[0, copied) is already in `rewritten`
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        fail_at(text, i, source,
                "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      }
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == 'N' || c == 'I' || c == '-') {
      std::string_view token;
      std::string_view mark;
      if (c == 'N' && token_at(text, i, "NaN")) {
        token = "NaN";
        mark = kNanMark;
      } else if (c == 'I' && token_at(text, i, "Infinity")) {
        token = "Infinity";
        mark = kInfinityMark;
      } else if (c == '-' && token_at(text, i, "-Infinity")) {
        token = "-Infinity";
        mark = kMinusInfinityMark;
      } else {
        continue;
      }
      if (rewritten.empty()) rewritten.reserve(text.size() + 64);
      rewritten.append(text, copied, i - copied);
      rewritten.append(mark);
      copied = i + token.size();
      replacements.push_back({rewritten.size(), static_cast<std::ptrdiff_t>(rewritten.size()) -
                                                    static_cast<std::ptrdiff_t>(copied)});
      i = copied - 1;
    }
  }
  if (!replacements.empty()) rewritten.append(text, copied, std::string_view::npos);
  return rewritten;
}

// The offset in the original text of an offset in the rewritten one.
std::size_t original_offset(std::size_t rewritten, const std::vector<Replacement>& replacements) {
  std::ptrdiff_t shift = 0;
  for (const Replacement& r : replacements) {
    if (r.rewritten_offset > rewritten) break;
    shift = r.shift;
  }
  const auto offset = static_cast<std::ptrdiff_t>(rewritten) - shift;
  return offset < 0 ? 0 : static_cast<std::size_t>(offset);
}

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
// -> "syntax error ...": the position is reported in the original text instead.
std::string parse_error_reason(const Json::parse_error& error) {
  const std::string what = error.what();
  const std::size_t column = what.find("column ");
  if (column != std::string::npos) {
    const std::size_t colon = what.find(": ", column);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  return what;
}

void restore_non_finite(Json& value) {
  if (!value.is_string()) return;
  const auto& text = value.get_ref<const std::string&>();
  if (text.empty() || text[0] != '\x01') return;
  if (text == "\x01NaN") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (text == "\x01Infinity") {
    value = std::numeric_limits<double>::infinity();
  } else if (text == "\x01-Infinity") {
    value = -std::numeric_limits<double>::infinity();
  }
}

}  // namespace

Json parse_result_json(std::string_view text, const std::string& source) {
  std::size_t first = 0;
  while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first])) != 0) {
    ++first;
  }
  if (first == text.size()) {
    throw Error(ExitCode::kDataError,
                source +
                    ": the file is empty. Point perfgate at the JSON file the benchmark "
                    "tool wrote, after the tool has finished");
  }
  std::vector<Replacement> replacements;
  const std::string rewritten = rewrite_non_finite_tokens(text, source, replacements);
  try {
    if (replacements.empty()) return Json::parse(text);
    return Json::parse(rewritten, [](int, Json::parse_event_t event, Json& parsed) {
      if (event == Json::parse_event_t::value) restore_non_finite(parsed);
      return true;
    });
  } catch (const Json::parse_error& error) {
    const std::size_t byte = error.byte > 0 ? error.byte - 1 : 0;
    fail_at(text, replacements.empty() ? byte : original_offset(byte, replacements), source,
            parse_error_reason(error));
  }
}

}  // namespace perfgate::ingest
