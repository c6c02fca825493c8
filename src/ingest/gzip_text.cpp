#include "ingest/gzip_text.hpp"

#include <zlib.h>

#include <climits>

#include "model/error.hpp"

namespace perfgate::ingest {
namespace {

[[noreturn]] void fail(const std::string& source, const std::string& reason) {
  throw Error(ExitCode::kDataError,
              source + ": gzip data " + reason +
                  ". Compress the result file again (gzip FILE), or pass the uncompressed file");
}

// Owns a zlib stream so every exit path releases it.
class Inflater {
 public:
  explicit Inflater(const std::string& source) {
    // 15 + 32: the largest window, and a gzip (or zlib) header detected automatically.
    if (inflateInit2(&stream_, 15 + 32) != Z_OK) fail(source, "cannot be inflated (zlib init)");
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() { inflateEnd(&stream_); }
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view bytes, const std::string& source) {
  if (bytes.size() > UINT_MAX) fail(source, "is larger than 4 GiB");
  Inflater inflater(source);
  z_stream& stream = inflater.stream();
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buffer[1 << 16];
  for (;;) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    const int status = inflate(&stream, Z_NO_FLUSH);
    if (status == Z_BUF_ERROR && stream.avail_in == 0) {
      fail(source, "is truncated (the compressed stream does not end)");
    }
    if (status != Z_OK && status != Z_STREAM_END) {
      fail(source, std::string("is corrupt (") + (stream.msg ? stream.msg : "zlib error") + ")");
    }
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (out.size() > kMaxInflatedBytes) fail(source, "inflates to more than 4 GiB");
    if (status != Z_STREAM_END) continue;
    if (stream.avail_in == 0) return out;
    // Another member may follow, as `cat a.gz b.gz` makes; anything else is not gzip.
    const std::string_view rest(reinterpret_cast<const char*>(stream.next_in), stream.avail_in);
    if (!is_gzip(rest)) fail(source, "has trailing bytes after the compressed stream");
    inflateReset(&stream);
  }
}

}  // namespace perfgate::ingest
