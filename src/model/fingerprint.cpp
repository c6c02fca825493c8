#include "model/fingerprint.hpp"

#include <openssl/evp.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <type_traits>

#include "model/error.hpp"

namespace perfgate {
namespace {

// Object members are emitted in the order nlohmann keeps them. That order is the
// canonical one only because objects are a std::map over std::string, whose
// comparison is char_traits<char>::compare: bytewise, as if each char were unsigned.
static_assert(std::is_same_v<Json::object_t::key_type, std::string>);
static_assert(
    std::is_same_v<Json::object_t, std::map<std::string, Json, Json::object_comparator_t>>,
    "canonical_json relies on objects being kept sorted by their keys' bytes");

// Largest magnitude below which every integer is exactly representable as a double.
constexpr double kTwoTo53 = 9007199254740992.0;

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not valid
// (truncated, overlong, a surrogate, or beyond U+10FFFF).
std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the first continuation byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

void write_string(const std::string& text, std::string& out) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        throw Error(ExitCode::kDataError,
                    "a JSON string is not valid UTF-8 (bad byte at offset " + std::to_string(i) +
                        "): re-encode the value as UTF-8 before it enters a fingerprint");
      }
      out.append(text, i, length);
      i += length;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          std::array<char, 7> escaped{};
          std::snprintf(escaped.data(), escaped.size(), "\\u%04x", u);
          out += escaped.data();
        } else {
          out += c;
        }
    }
    ++i;
  }
  out += '"';
}

void write_float(double v, std::string& out) {
  if (!std::isfinite(v)) {
    throw Error(ExitCode::kDataError,
                "a JSON number is NaN or infinite, which has no canonical form: "
                "replace it with a finite number or null before it enters a fingerprint");
  }
  if (v == std::trunc(v) && std::fabs(v) < kTwoTo53) {
    // 3.0 and 3 describe the same recipe; -0.0 becomes 0 the same way.
    out += std::to_string(static_cast<long long>(v));
    return;
  }
  // Shortest text that reads back as the same double; std::to_chars picks fixed or
  // exponent notation, whichever is shorter (0.1, 1e+21, 1.5e-07).
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  out.append(buffer.data(), result.ptr);
}

void write_value(const Json& value, std::string& out) {
  switch (value.type()) {
    case Json::value_t::null:
      out += "null";
      return;
    case Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
      out += std::to_string(value.get<std::int64_t>());
      return;
    case Json::value_t::number_unsigned:
      out += std::to_string(value.get<std::uint64_t>());
      return;
    case Json::value_t::number_float:
      write_float(value.get<double>(), out);
      return;
    case Json::value_t::string:
      write_string(value.get_ref<const std::string&>(), out);
      return;
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const Json& element : value) {
        if (!first) out += ',';
        first = false;
        write_value(element, out);
      }
      out += ']';
      return;
    }
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        write_string(key, out);
        out += ':';
        write_value(member, out);
      }
      out += '}';
      return;
    }
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  throw Error(ExitCode::kDataError,
              "a binary or discarded value has no JSON text: convert it to a string first");
}

std::string to_hex(const unsigned char* digest, unsigned int length) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 0x0F];
  }
  return hex;
}

}  // namespace

std::string canonical_json(const Json& value) {
  std::string out;
  write_value(value, out);
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw Error(ExitCode::kSoftware, "OpenSSL could not compute a SHA-256 digest");
  }
  return to_hex(digest.data(), length);
}

std::string sha256_file(const std::string& path) {
  const auto close = [](std::FILE* f) { std::fclose(f); };
  std::unique_ptr<std::FILE, decltype(close)> file(std::fopen(path.c_str(), "rb"), close);
  const auto unreadable = [&] {
    return Error(ExitCode::kNoInput, path +
                                         ": cannot be read for its SHA-256 digest; check that "
                                         "the input file exists and is a readable file");
  };
  if (!file) throw unreadable();

  const auto free_context = [](EVP_MD_CTX* c) { EVP_MD_CTX_free(c); };
  std::unique_ptr<EVP_MD_CTX, decltype(free_context)> context(EVP_MD_CTX_new(), free_context);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw Error(ExitCode::kSoftware, "OpenSSL could not start a SHA-256 digest");
  }
  // Streamed in fixed chunks so that large inputs (models, data sets) never sit in memory.
  std::array<char, 1 << 16> chunk{};
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file.get())) > 0) {
    EVP_DigestUpdate(context.get(), chunk.data(), got);
  }
  if (std::ferror(file.get())) throw unreadable();

  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_DigestFinal_ex(context.get(), digest.data(), &length);
  return to_hex(digest.data(), length);
}

std::string fingerprint(const Json& value) {
  return sha256_hex(canonical_json(value));
}

std::string profile_id(std::string_view prefix, const Json& value) {
  return std::string(prefix) + "-" + fingerprint(value).substr(0, 16);
}

}  // namespace perfgate
