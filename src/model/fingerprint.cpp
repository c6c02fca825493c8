#include "model/fingerprint.hpp"

#include <openssl/evp.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <type_traits>

#include "model/compact_json.hpp"
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
  append_json_value(value, out, JsonTextRules{.strict_utf8 = true, .strict_numbers = true});
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
