#include "ingest/nvbench_fast_reader.hpp"

// Every standard header simdjson.h includes comes first, outside the target region below,
// so that only simdjson's own code and this reader are compiled for AVX2.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cfloat>
#include <charconv>
#include <cinttypes>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <ostream>
#include <ranges>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ingest/bulk_file.hpp"
#include "ingest/json_text.hpp"
#include "ingest/nvbench_tags.hpp"

// simdjson's on-demand parser exists only in its "builtin" implementation, which is the
// one the compiler flags allow: on x86-64 without -mavx2 that is the slow portable one. So
// this file selects the AVX2 (haswell) kernels and compiles simdjson and the reader for
// them; read_nvbench_fast runs it only on a CPU that has them, and otherwise leaves the
// file to the strict reader. The rest of perfgate stays built for any x86-64.
#if defined(__x86_64__) && !defined(__AVX2__)
#define PERFGATE_SIMDJSON_HASWELL_REGION 1
#define SIMDJSON_BUILTIN_IMPLEMENTATION haswell
// Plain inline rather than always_inline: a standard template from outside the region
// (std::pair's constructor, which simdjson's field derives from) may then call simdjson's
// functions instead of failing to inline them. Inside the region the optimiser still
// inlines them.
#define simdjson_inline inline
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,pclmul,lzcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,pclmul,lzcnt")
#endif
#endif
#include <simdjson.h>

namespace perfgate::ingest {
namespace {

namespace sj = simdjson::ondemand;
using simdjson::SUCCESS;

/// Thrown (and caught in read_nvbench_fast) when the strict reader must take over: the
/// happy path stays free of error plumbing, and giving up is rare.
struct GiveUp {};

[[noreturn]] void give_up() {
  throw GiveUp{};
}

// Moves the value out without default-constructing one first: simdjson's default
// constructors are always-inline functions of the AVX2 region, which a standard template
// (std::pair's, outside the region) may not inline.
template <typename T>
T checked(simdjson::simdjson_result<T>&& result) {
  if (result.error() != SUCCESS) give_up();
  return std::move(result).value_unsafe();
}

/// The characters of a JSON string from just after its opening quote up to its closing
/// one (simdjson's first stage has checked that one exists); gives up on an escape, which
/// the strict reader decodes.
std::string_view plain_text(const char* raw) {
#if PERFGATE_SIMDJSON_HASWELL_REGION || defined(__AVX2__)
  // Thirty-two bytes at a time: every string of a state is scanned, and most (tags, numbers
  // as text) are longer than a byte loop is quick for. The closing quote is there, and the
  // padding after the text (at least 32 bytes) keeps the last block inside the buffer.
  static_assert(simdjson::SIMDJSON_PADDING >= 32);
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  for (const char* block = raw;; block += 32) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
    const auto quotes =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, quote)));
    const auto escapes =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, backslash)));
    if ((quotes | escapes) == 0) continue;
    const int first = std::countr_zero(quotes | escapes);
    if ((escapes >> first) & 1U) give_up();
    return {raw, static_cast<std::size_t>(block - raw) + static_cast<std::size_t>(first)};
  }
#else
  // One pass looks for both: the strings are short, and a second search (memchr) cost more
  // than the first.
  const char* end = raw;
  for (; *end != '"'; ++end) {
    if (*end == '\\') give_up();
  }
  return {raw, static_cast<std::size_t>(end - raw)};
#endif
}

/// `text` is the literal `expected`: a comparison of a known length, which the compiler
/// inlines, where string_view's == calls memcmp for every key of every object.
template <std::size_t N>
bool is(std::string_view text, const char (&expected)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), expected, N - 1) == 0;
}

/// An element of an array or object being iterated, in place.
template <typename T>
T& element_of(simdjson::simdjson_result<T>& result) {
  if (result.error() != SUCCESS) give_up();
  return result.value_unsafe();
}

std::string_view key_of(sj::field& field) {
  return plain_text(field.key().raw());
}

std::string_view string_of(sj::value& value) {
  return plain_text(checked(value.get_raw_json_string()).raw());
}

/// A JSON number token exactly as RFC 8259 spells it; simdjson's on-demand parser checks
/// number syntax only when it converts, so the token is checked here.
bool json_number_syntax(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

/// A number's token without the blanks simdjson keeps after it.
std::string_view number_token(sj::value& value) {
  std::string_view token = value.raw_json_token();
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                            token.back() == '\t')) {
    token.remove_suffix(1);
  }
  if (!json_number_syntax(token)) give_up();
  return token;
}

bool is_integer_token(std::string_view token) {
  return token.find_first_of(".eE") == std::string_view::npos;
}

double to_double(std::string_view text) {
  double out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) give_up();
  return out;
}

long long to_integer(std::string_view text) {
  long long out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) give_up();
  return out;
}

sj::json_type type_of(sj::value& value) {
  return checked(value.type());
}

/// An integer as JsonCursor::integer reads it: a JSON integer within long long.
long long integer_of(sj::value& value) {
  if (type_of(value) != sj::json_type::number) give_up();
  const std::string_view token = number_token(value);
  if (!is_integer_token(token)) give_up();
  return to_integer(token);
}

bool is_null(sj::value& value) {
  if (type_of(value) != sj::json_type::null) return false;
  if (!checked(value.is_null())) give_up();  // "nul", "nulll": the strict reader says where
  return true;
}

/// One datum of a summary's "data" array, as far as the readers look at it.
struct Datum {
  std::string_view name;
  bool has_type = false;
  std::string_view type;  ///< when has_type and not null
  bool has_value = false;
  sj::json_type value_type = sj::json_type::null;
  std::string_view value;  ///< a string's text or a number's token
};

/// The datum called `name`, checked as nvbench_summary.cpp checks it; gives up where that
/// would fail (no such datum, a type other than float64/int64 for numbers).
const Datum& datum(const std::vector<Datum>& data, std::string_view name, bool numeric) {
  for (const Datum& d : data) {
    if (d.name != name) continue;
    if (numeric && d.has_type && d.type != "float64" && d.type != "int64") give_up();
    if (!d.has_value) give_up();
    return d;
  }
  give_up();
}

std::optional<double> number_datum(const std::vector<Datum>& data) {
  const Datum& d = datum(data, "value", true);
  if (d.value_type == sj::json_type::null) return std::nullopt;
  return to_double(d.value);  // text (nvbench's way) or a JSON number token
}

long long integer_datum(const std::vector<Datum>& data, std::string_view name) {
  const Datum& d = datum(data, name, true);
  if (d.value_type == sj::json_type::null) give_up();
  if (d.value_type == sj::json_type::number && !is_integer_token(d.value)) give_up();
  return to_integer(d.value);
}

std::string_view text_datum(const std::vector<Datum>& data, std::string_view name) {
  const Datum& d = datum(data, name, false);
  if (d.value_type != sj::json_type::string) give_up();
  return d.value;
}

class FastNvbenchReader {
 public:
  FastNvbenchReader(const std::filesystem::path& path, ResultFile& file, StateListener* listener)
      : path_(path), file_(file), listener_(listener) {}

  /// Gives back the pages of `text` the walk has passed, a quarter of a megabyte at a time.
  void release_read_text(std::string_view text) {
    release_text_ = text;
    released_up_to_ = text.data();
  }

  FastReadStatus read(sj::document& document) {
    document_ = &document;
    sj::object root = checked(document.get_object());
    bool has_devices = false;
    bool has_benchmarks = false;
    bool has_meta = false;
    // The strict reader finds keys wherever they are; the first pass here only checks
    // that this is an nvbench file, as detect_result_format does.
    for (auto member : root) {
      sj::field& field = element_of(member);
      const std::string_view key = key_of(field);
      sj::value value = field.value();
      if (is(key, "devices") || is(key, "benchmarks") || is(key, "meta")) {
        bool& seen = is(key, "devices")      ? has_devices
                     : is(key, "benchmarks") ? has_benchmarks
                                             : has_meta;
        if (seen) give_up();  // a key given twice: which one counts is the strict reader's
        seen = true;
        if (is(key, "meta")) {
          read_meta(value);
        } else if (type_of(value) != sj::json_type::array) {
          return FastReadStatus::kNotNvbench;
        } else if (is(key, "devices")) {
          read_devices(value);
        } else {
          read_benchmarks(value);
        }
      }
    }
    if (!has_devices || !has_benchmarks) return FastReadStatus::kNotNvbench;
    // Anything after the top-level object is a syntax error for the strict reader to name.
    const char* after = nullptr;
    if (document.current_location().get(after) == SUCCESS) give_up();
    return FastReadStatus::kRead;
  }

 private:
  void read_meta(sj::value& value) {
    if (is_null(value)) return;
    const sj::json_type type = type_of(value);
    std::string_view raw;
    if (type == sj::json_type::object) {
      raw = checked(checked(value.get_object()).raw_json());
    } else if (type == sj::json_type::array) {
      raw = checked(checked(value.get_array()).raw_json());
    } else {
      give_up();  // a scalar meta: nvbench never writes one
    }
    try {
      file_.context = Json::parse(raw);
    } catch (const Json::exception&) {
      give_up();
    }
  }

  void read_devices(sj::value& value) {
    sj::array devices = checked(value.get_array());
    for (auto item : devices) {
      sj::value& device = element_of(item);
      sj::object object = checked(device.get_object());
      std::optional<long long> id;
      std::string name;
      for (auto member : object) {
        sj::field& field = element_of(member);
        const std::string_view key = key_of(field);
        sj::value v = field.value();
        if (is(key, "id")) {
          if (id) give_up();
          id = integer_of(v);
        } else if (is(key, "name")) {
          if (!is_null(v)) name = string_of(v);
        }
      }
      if (!id) give_up();
      file_.devices.push_back(ResultDevice{*id, std::move(name)});
    }
  }

  void read_benchmarks(sj::value& value) {
    sj::array benchmarks = checked(value.get_array());
    for (auto item : benchmarks) {
      sj::value& benchmark = element_of(item);
      sj::object object = checked(benchmark.get_object());
      ResultBenchmark entry;
      bool has_name = false;
      bool has_states = false;
      bool named_states = false;
      const std::size_t first_state = file_.states.size();
      for (auto member : object) {
        sj::field& field = element_of(member);
        const std::string_view key = key_of(field);
        sj::value v = field.value();
        if (is(key, "name")) {
          if (has_name) give_up();
          has_name = true;
          entry.name = string_of(v);
        } else if (is(key, "devices")) {
          if (is_null(v)) continue;
          for (auto id : checked(v.get_array())) {
            sj::value& id_value = element_of(id);
            entry.devices.push_back(integer_of(id_value));
          }
        } else if (is(key, "states")) {
          if (has_states) give_up();
          has_states = true;
          if (is_null(v)) continue;
          // nvbench writes "name" first: then each state is whole, and told about, as soon
          // as it is read.
          named_states = has_name;
          for (auto state : checked(v.get_array())) {
            sj::value& state_value = element_of(state);
            read_state(state_value, has_name ? &entry.name : nullptr);
          }
        }
      }
      if (!has_name || !has_states) give_up();
      // "states" came before "name": the states learn their benchmark now.
      if (!named_states) {
        for (std::size_t s = first_state; s < file_.states.size(); ++s) {
          file_.states[s].benchmark = entry.name;
          if (listener_ != nullptr) listener_->state_read(file_.states[s], s);
        }
      }
      file_.benchmarks.push_back(std::move(entry));
    }
  }

  /// Between two states nothing refers to the text already walked: the states hold
  /// copies, and the summaries' data views belong to the state being read.
  void release_passed_text() {
    if (release_text_.empty()) return;
    const char* here = nullptr;
    if (document_->current_location().get(here) != SUCCESS) return;
    // A quarter of a megabyte: the peak comes just after the first stage, while the walk
    // has not yet passed a step but the states it read (and the decisions taken from them
    // meanwhile) already take memory. A megabyte left up to 0.3 MB more at that peak;
    // 128 KB steps gave no less.
    constexpr std::size_t kStep = std::size_t{1} << 18;
    if (here < released_up_to_ + kStep) return;
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto first = (reinterpret_cast<std::uintptr_t>(released_up_to_) + page - 1) / page * page;
    const auto last = (reinterpret_cast<std::uintptr_t>(here) - page) / page * page;
    if (last > first) {
      ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
      released_up_to_ = reinterpret_cast<const char*>(last);
    }
  }

  /// `benchmark`: the benchmark's name when it is known already (else nullptr).
  void read_state(sj::value& value, const std::string* benchmark) {
    release_passed_text();
    sj::object object = checked(value.get_object());
    if (listener_ != nullptr && file_.states.size() == file_.states.capacity()) {
      listener_->states_moving();
    }
    ResultState& state = file_.states.emplace_back();
    if (benchmark != nullptr) state.benchmark = *benchmark;
    state.timing_name = "gpu_time";
    bool has_name = false;
    for (auto member : object) {
      sj::field& field = element_of(member);
      const std::string_view key = key_of(field);
      sj::value v = field.value();
      if (is(key, "name")) {
        if (has_name) give_up();
        has_name = true;
        state.state_key = nvbench_state_key(string_of(v));
      } else if (is(key, "device")) {
        if (!is_null(v)) state.device = integer_of(v);
      } else if (is(key, "axis_values")) {
        if (!is_null(v)) read_axes(v, state);
      } else if (is(key, "is_skipped")) {
        if (is_null(v)) continue;
        state.skipped = checked(v.get_bool());
      } else if (is(key, "skip_reason")) {
        if (!is_null(v)) state.skip_reason = string_of(v);
      } else if (is(key, "summaries")) {
        if (!is_null(v)) read_summaries(v, state);
      }
    }
    if (!has_name) give_up();
    if (state.skipped) {
      // The strict reader ignores a skipped state's summaries (and reads its reason only
      // then): so does this one, whatever order the keys came in.
      state.summary = TimingSummary{};
      state.bulk_times.reset();
      state.bulk_frequencies.reset();
      state.extra_metrics.clear();
    } else {
      state.skip_reason.clear();
    }
    if (benchmark != nullptr && listener_ != nullptr) {
      listener_->state_read(state, file_.states.size() - 1);
    }
  }

  static void read_axes(sj::value& value, ResultState& state) {
    for (auto item : checked(value.get_array())) {
      sj::value& axis = element_of(item);
      std::optional<std::string_view> name;
      std::optional<std::string_view> text;
      for (auto member : checked(axis.get_object())) {
        sj::field& field = element_of(member);
        const std::string_view key = key_of(field);
        sj::value v = field.value();
        if (is(key, "name")) {
          if (name) give_up();
          name = string_of(v);
        } else if (is(key, "value")) {
          if (text) give_up();
          const sj::json_type type = type_of(v);
          if (type == sj::json_type::string) {
            text = string_of(v);
          } else if (type == sj::json_type::number) {
            // The strict reader writes a number back as nlohmann dumps it: integers read
            // the same as their token; anything else is left to it.
            text = number_token(v);
            if (!is_integer_token(*text) || text->size() > 18 || *text == "-0") give_up();
          } else {
            give_up();
          }
        }
      }
      if (!name || !text) give_up();
      state.axis_values.emplace_back(std::string(*name), std::string(*text));
    }
  }

  void read_data(sj::value& value) {
    data_.clear();
    for (auto item : checked(value.get_array())) {
      sj::value& element = element_of(item);
      Datum& d = data_.emplace_back();
      bool has_name = false;
      for (auto member : checked(element.get_object())) {
        sj::field& field = element_of(member);
        const std::string_view key = key_of(field);
        sj::value v = field.value();
        if (is(key, "name")) {
          if (has_name) give_up();
          has_name = true;
          d.name = string_of(v);
        } else if (is(key, "type")) {
          if (d.has_type) give_up();
          d.has_type = true;
          if (!is_null(v)) d.type = string_of(v);
        } else if (is(key, "value")) {
          if (d.has_value) give_up();
          d.has_value = true;
          d.value_type = type_of(v);
          switch (d.value_type) {
            case sj::json_type::string:
              d.value = string_of(v);
              break;
            case sj::json_type::number:
              d.value = number_token(v);
              break;
            case sj::json_type::null:
              if (!is_null(v)) give_up();
              break;
            default:
              give_up();
          }
        }
      }
      if (!has_name) give_up();
    }
  }

  std::optional<BulkFile> bulk_file() {
    const std::string_view written = text_datum(data_, "filename");
    const long long size = integer_datum(data_, "size");
    if (written.empty() || size < 0) give_up();  // the strict reader words the warning
    std::string name(written);
    std::optional<std::string> where = bulk_path_beside(json_folder_, name, folders_);
    if (!where) where = resolve_bulk_path(path_, name, folders_).string();
    return BulkFile{std::move(name), std::move(*where), static_cast<std::size_t>(size)};
  }

  void read_summaries(sj::value& value, ResultState& state) {
    TimingSummary& t = state.summary;
    NvbenchOtherSummaries other;
    for (auto item : checked(value.get_array())) {
      sj::value& summary = element_of(item);
      std::optional<NvbenchField> field;
      bool has_tag = false;
      bool has_data = false;
      for (auto member : checked(summary.get_object())) {
        sj::field& entry = element_of(member);
        const std::string_view key = key_of(entry);
        sj::value v = entry.value();
        if (is(key, "tag")) {
          if (has_tag) give_up();
          has_tag = true;
          field = nvbench_field(string_of(v));
        } else if (is(key, "data")) {
          // nvbench writes the tag first; data before it is left to the strict reader.
          if (!has_tag || has_data) give_up();
          has_data = true;
          if (field) read_data(v);
        }
      }
      if (!has_tag) give_up();
      if (!field) continue;
      if (!has_data) give_up();
      const auto number = [&] {
        const std::optional<double> read = number_datum(data_);
        if (!read && null_means_infinite(*field)) return std::optional<double>(kInfinity);
        return read;
      };
      switch (*field) {
        case NvbenchField::kSampleSize: {
          const long long size = integer_datum(data_, "value");
          if (size < 0) give_up();
          t.sample_size = size;
          break;
        }
        case NvbenchField::kBulkTimes:
          state.bulk_times = bulk_file();
          break;
        case NvbenchField::kBulkFrequencies:
          state.bulk_frequencies = bulk_file();
          break;
        case NvbenchField::kMin:
          t.min = number();
          break;
        case NvbenchField::kMax:
          t.max = number();
          break;
        case NvbenchField::kMean:
          t.mean = number();
          break;
        case NvbenchField::kStdevAbsolute:
          t.stdev_absolute = number();
          break;
        case NvbenchField::kStdevRelative:
          t.stdev_relative = number();
          break;
        case NvbenchField::kQ1:
          t.q1 = number();
          break;
        case NvbenchField::kMedian:
          t.median = number();
          break;
        case NvbenchField::kQ3:
          t.q3 = number();
          break;
        case NvbenchField::kIqrAbsolute:
          t.iqr_absolute = number();
          break;
        case NvbenchField::kIqrRelative:
          t.iqr_relative = number();
          break;
        case NvbenchField::kIrAbsolute:
          other.ir_absolute = number();
          break;
        case NvbenchField::kIrRelative:
          other.ir_relative = number();
          break;
        case NvbenchField::kClockRate:
          t.clock_rate_mean = number();
          break;
        case NvbenchField::kCpuTime:
          other.cpu_time = number();
          break;
        case NvbenchField::kBatchGpuTime:
          other.batch_gpu_time = number();
          break;
        case NvbenchField::kBandwidth:
          other.bandwidth = number();
          break;
        case NvbenchField::kItemRate:
          other.item_rate = number();
          break;
      }
    }
    finish_nvbench_summaries(state, other);
    if (state.bulk_times && state.bulk_frequencies &&
        state.bulk_times->count != state.bulk_frequencies->count) {
      give_up();  // the strict reader warns and drops both
    }
  }

  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  const std::filesystem::path& path_;
  ResultFile& file_;
  StateListener* listener_;
  sj::document* document_ = nullptr;
  std::string_view release_text_;         ///< empty: the text is not the reader's to give back
  const char* released_up_to_ = nullptr;  ///< pages before this are given back
  const std::string json_folder_ = path_.parent_path().string();
  BulkFolders folders_;      ///< the bulk files' folders, each listed once
  std::vector<Datum> data_;  ///< the current summary's data, reused: no allocation per summary
};

FastReadStatus read_with_simdjson(std::string_view text, std::size_t capacity,
                                  const std::filesystem::path& path, ResultFile& file,
                                  StateListener* listener, bool release_read_text) {
  // One parser per thread, kept: its buffers (four bytes per byte of text for the
  // structural indexes) are then faulted in once, not once per file; a diff reads two.
  thread_local sj::parser parser;
  // The strict reader refuses nesting deeper than kMaxJsonDepth; so does simdjson then.
  if (parser.capacity() < text.size() || parser.max_depth() != kMaxJsonDepth) {
    // A quarter more than this text: the next file of a diff is seldom much larger.
    const std::size_t capacity = text.size() + text.size() / 4;
    if (parser.allocate(capacity, kMaxJsonDepth) != SUCCESS) return FastReadStatus::kGaveUp;
  }
  sj::document document;
  if (parser.iterate(text, capacity).get(document) != SUCCESS) return FastReadStatus::kGaveUp;
  ResultFile read;
  read.format = ResultFormat::kNvbench;
  read.path = path;
  // Room for more states than the file can hold (an nvbench state takes kilobytes of
  // JSON): growing the vector copied every state read so far, twice over. Room never used
  // is never touched, so it costs address space only.
  constexpr std::size_t kLeastBytesPerState = 2048;
  read.states.reserve(std::min<std::size_t>(text.size() / kLeastBytesPerState + 16, 1 << 20));
  // The states move with the vector's buffer into `file`; any other way out (giving up,
  // std::bad_alloc) destroys them, and the listener hears of it first.
  struct Abandon {
    StateListener* listener;
    ~Abandon() {
      if (listener != nullptr) listener->abandoned();
    }
  } abandon{listener};
  try {
    FastNvbenchReader reader(path, read, listener);
    if (release_read_text) reader.release_read_text(text);
    const FastReadStatus status = reader.read(document);
    if (status == FastReadStatus::kRead) {
      file = std::move(read);
      abandon.listener = nullptr;
    }
    return status;
  } catch (const GiveUp&) {
    return FastReadStatus::kGaveUp;
  }
}

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

}  // namespace
}  // namespace perfgate::ingest

#if PERFGATE_SIMDJSON_HASWELL_REGION
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#include <cpuid.h>
#endif

namespace perfgate::ingest {
namespace {

/// Whether this CPU runs the kernels the reader was compiled for.
bool cpu_runs_fast_reader() {
#if PERFGATE_SIMDJSON_HASWELL_REGION
  static const bool runs = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool lzcnt = __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 5));
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("pclmul") && lzcnt;
  }();
  return runs;
#else
  return true;
#endif
}

}  // namespace

std::size_t fast_reader_padding() {
  return kPadding;
}

FastReadStatus read_nvbench_fast(std::string_view text, std::size_t capacity,
                                 const std::filesystem::path& path, ResultFile& file,
                                 StateListener* listener, bool release_read_text) {
  if (capacity < text.size() + kPadding || !cpu_runs_fast_reader()) return FastReadStatus::kGaveUp;
  return read_with_simdjson(text, capacity, path, file, listener, release_read_text);
}

}  // namespace perfgate::ingest
