// The fast nvbench reader must read every file exactly as the strict one does, or give
// up and leave it to the strict one.
#include "ingest/nvbench_fast_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ingest/json_text.hpp"
#include "ingest/nvbench_reader.hpp"
#include "ingest/reader_test_support.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

FastReadStatus read_fast(const std::string& text, const std::filesystem::path& path,
                         ResultFile& file) {
  std::string padded = text;
  padded.reserve(text.size() + fast_reader_padding());
  return read_nvbench_fast(padded, padded.capacity(), path, file);
}

void expect_same_summary(const TimingSummary& a, const TimingSummary& b, std::size_t i) {
  EXPECT_EQ(a.min, b.min) << i;
  EXPECT_EQ(a.max, b.max) << i;
  EXPECT_EQ(a.mean, b.mean) << i;
  EXPECT_EQ(a.stdev_absolute, b.stdev_absolute) << i;
  EXPECT_EQ(a.stdev_relative, b.stdev_relative) << i;
  EXPECT_EQ(a.q1, b.q1) << i;
  EXPECT_EQ(a.median, b.median) << i;
  EXPECT_EQ(a.q3, b.q3) << i;
  EXPECT_EQ(a.iqr_absolute, b.iqr_absolute) << i;
  EXPECT_EQ(a.iqr_relative, b.iqr_relative) << i;
  EXPECT_EQ(a.clock_rate_mean, b.clock_rate_mean) << i;
  EXPECT_EQ(a.sample_size, b.sample_size) << i;
}

void expect_same_bulk(const std::optional<BulkFile>& a, const std::optional<BulkFile>& b,
                      std::size_t i) {
  ASSERT_EQ(a.has_value(), b.has_value()) << i;
  if (!a) return;
  EXPECT_EQ(a->written_name, b->written_name) << i;
  EXPECT_EQ(a->path, b->path) << i;
  EXPECT_EQ(a->count, b->count) << i;
}

void expect_same_file(const ResultFile& fast, const ResultFile& strict) {
  EXPECT_EQ(fast.format, strict.format);
  EXPECT_EQ(fast.path, strict.path);
  EXPECT_EQ(fast.context, strict.context);
  EXPECT_EQ(fast.warnings, strict.warnings);
  ASSERT_EQ(fast.devices.size(), strict.devices.size());
  for (std::size_t i = 0; i < fast.devices.size(); ++i) {
    EXPECT_EQ(fast.devices[i].id, strict.devices[i].id);
    EXPECT_EQ(fast.devices[i].name, strict.devices[i].name);
  }
  ASSERT_EQ(fast.benchmarks.size(), strict.benchmarks.size());
  for (std::size_t i = 0; i < fast.benchmarks.size(); ++i) {
    EXPECT_EQ(fast.benchmarks[i].name, strict.benchmarks[i].name);
    EXPECT_EQ(fast.benchmarks[i].devices, strict.benchmarks[i].devices);
  }
  ASSERT_EQ(fast.states.size(), strict.states.size());
  for (std::size_t i = 0; i < fast.states.size(); ++i) {
    const ResultState& a = fast.states[i];
    const ResultState& b = strict.states[i];
    EXPECT_EQ(a.benchmark, b.benchmark) << i;
    EXPECT_EQ(a.device, b.device) << i;
    EXPECT_EQ(a.state_key, b.state_key) << i;
    EXPECT_EQ(a.axis_values, b.axis_values) << i;
    EXPECT_EQ(a.skipped, b.skipped) << i;
    EXPECT_EQ(a.skip_reason, b.skip_reason) << i;
    EXPECT_EQ(a.timing_name, b.timing_name) << i;
    expect_same_summary(a.summary, b.summary, i);
    EXPECT_EQ(a.samples, b.samples) << i;
    expect_same_bulk(a.bulk_times, b.bulk_times, i);
    expect_same_bulk(a.bulk_frequencies, b.bulk_frequencies, i);
    ASSERT_EQ(a.extra_metrics.size(), b.extra_metrics.size()) << i;
    for (std::size_t m = 0; m < a.extra_metrics.size(); ++m) {
      EXPECT_EQ(a.extra_metrics[m].name, b.extra_metrics[m].name) << i;
      EXPECT_EQ(a.extra_metrics[m].unit, b.extra_metrics[m].unit) << i;
      EXPECT_EQ(a.extra_metrics[m].direction, b.extra_metrics[m].direction) << i;
      EXPECT_EQ(a.extra_metrics[m].samples, b.extra_metrics[m].samples) << i;
    }
  }
}

// Keys in nvbench's order and in others, numbers as text and as JSON numbers, null
// dispersions, the old "ir" tags, a skipped state with summaries, numeric axis values,
// bulk files, unknown keys and tags, and "states" before "name".
constexpr const char* kVaried = R"({
  "meta": {"argv": ["./bench", "--jsonbin"], "version": {"json": {"major": 1}}},
  "devices": [{"id": 0, "name": "GPU 0", "sm_version": 900}, {"name": null, "id": 1}],
  "benchmarks": [
    {"states": [
       {"name": "Device=1 N=4", "device": 1, "is_skipped": true, "skip_reason": "too big",
        "summaries": [{"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "1"}]}]}
     ],
     "name": "late_name", "devices": [1]},
    {"name": "copy", "index": 0, "devices": [0],
     "states": [
       {"name": "Device=0 T=F32 N=1024", "min_samples": 10, "device": 0,
        "axis_values": [{"name": "T", "type": "type", "value": "F32"}, {"value": 1024, "name": "N"}],
        "summaries": [
          {"tag": "nv/cold/sample_size", "name": "Samples", "data": [{"name": "value", "type": "int64", "value": "400"}]},
          {"tag": "nv/cold/time/gpu/min", "data": [{"name": "value", "type": "float64", "value": "0.0010031437666000492"}]},
          {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "type": "float64", "value": 0.00125}]},
          {"tag": "nv/cold/time/gpu/mean", "data": [{"type": "float64", "name": "value", "value": "1.2e-3"}]},
          {"tag": "nv/cold/time/gpu/stdev/relative", "data": [{"name": "value", "type": "float64", "value": null}]},
          {"tag": "nv/cold/time/gpu/ir/relative", "data": [{"name": "value", "type": "float64", "value": "0.01"}]},
          {"tag": "nv/cold/time/cpu/mean", "data": [{"name": "value", "type": "float64", "value": "0.002"}]},
          {"tag": "nv/cold/unknown", "data": "anything"},
          {"tag": "nv/cold/sm_clock_rate/mean", "data": [{"name": "value", "type": "float64", "value": "1400000000"}]},
          {"tag": "nv/json/bin:nv/cold/sample_times", "data": [{"name": "filename", "type": "string", "value": "r.json-bin/0.bin"}, {"name": "size", "type": "int64", "value": "400"}]},
          {"tag": "nv/json/freqs-bin:nv/cold/sample_freqs", "data": [{"name": "filename", "type": "string", "value": "r.json-freqs-bin/0.bin"}, {"name": "size", "type": "int64", "value": 400}]}
        ],
        "is_skipped": false},
       {"name": "Device=0", "device": 0, "summaries": null, "axis_values": null}
     ]}
  ]
})";

TEST(NvbenchFastReader, ReadsEveryFieldAsTheStrictReaderDoes) {
  TempDir dir;
  const auto path = dir / "r.json";
  ResultFile fast;
  ASSERT_EQ(read_fast(kVaried, path, fast), FastReadStatus::kRead);
  expect_same_file(fast, read_nvbench(parse_result_json(kVaried, "r.json"), path));
  EXPECT_EQ(fast.states[1].axis_values[1], (std::pair<std::string, std::string>{"N", "1024"}));
  EXPECT_EQ(fast.states[0].benchmark, "late_name");
}

TEST(NvbenchFastReader, ReadsTheSharedFixtureAsTheStrictReaderDoes) {
  const auto path = ingest_fixture("nvbench_axes.json");
  const std::string text = read_text(path);
  ResultFile fast;
  ASSERT_EQ(read_fast(text, path, fast), FastReadStatus::kRead);
  expect_same_file(fast, read_nvbench(parse_result_json(text, path.string()), path));
}

TEST(NvbenchFastReader, ReadsAMappedFileWhereverItsEndFallsInAPage) {
  // Files of 1 MiB and more are mapped, and simdjson reads 64 bytes past the text: the
  // end exactly on a page boundary, just before one and just after one must all read
  // the same as the strict reader, with no read past the mapping.
  TempDir dir;
  const std::size_t mib = std::size_t{1} << 20;
  for (const std::size_t size : {mib, mib + 4096 - 10, mib + 1, 3 * mib + 4095}) {
    std::string text = kVaried;
    text.resize(size, ' ');
    const auto path = dir.write("r.json", text);
    const ResultFile read = read_result_file(path, std::nullopt);
    expect_same_file(read, read_nvbench(parse_result_json(text, "r.json"), path));
    EXPECT_EQ(read.states.size(), 3u) << size;
  }
}

/// An nvbench file of `states` states with every summary perfgate reads, a few
/// kilobytes each: large enough to be mapped, and for the reader to give back the pages it
/// has passed.
std::string many_states(std::size_t states) {
  std::string text = R"({"devices": [{"id": 0, "name": "GPU"}], "benchmarks": [{"name": "b", )"
                     R"("states": [)";
  for (std::size_t i = 0; i < states; ++i) {
    const std::string median = std::to_string(1.0 + static_cast<double>(i) * 1e-3);
    text += (i ? ",\n" : "") + std::string(R"(    {"name": "Device=0 N=)") + std::to_string(i) +
            R"(", "device": 0, "axis_values": [{"name": "N", "type": "int64", "value": ")" +
            std::to_string(i) + R"("}], "summaries": [)";
    const char* tags[] = {"nv/cold/time/gpu/min",          "nv/cold/time/gpu/q1",
                          "nv/cold/time/gpu/median",       "nv/cold/time/gpu/q3",
                          "nv/cold/time/gpu/iqr/relative", "nv/cold/sm_clock_rate/mean"};
    for (std::size_t t = 0; t < std::size(tags); ++t) {
      text += std::string(t ? ", " : "") + R"({"tag": ")" + tags[t] +
              R"(", "name": "x", "hint": "duration", "description": "a summary described at )"
              R"(length, as nvbench describes its own", "data": [{"name": "value", "type": )"
              R"("float64", "value": ")" +
              median + R"("}]})";
    }
    text += "]}";
  }
  return text + "]}]}";
}

class RecordingListener final : public StateListener {
 public:
  void state_read(const ResultState& state, std::size_t index) override {
    told.emplace_back(state.benchmark, index);
  }
  void states_moving() override { ++moving; }
  void abandoned() override { ++abandons; }

  std::vector<std::pair<std::string, std::size_t>> told;
  int moving = 0;
  int abandons = 0;
};

TEST(NvbenchFastReader, TellsTheListenerEachStateWithItsBenchmarkOrThatItGaveUp) {
  TempDir dir;
  RecordingListener listener;
  ResultFile fast;
  std::string padded = kVaried;
  padded.reserve(padded.size() + fast_reader_padding());
  ASSERT_EQ(read_nvbench_fast(padded, padded.capacity(), dir / "r.json", fast, &listener),
            FastReadStatus::kRead);
  ASSERT_EQ(listener.told.size(), fast.states.size());
  for (std::size_t i = 0; i < fast.states.size(); ++i) {
    // "late_name" names its benchmark after its states: they are told about at its end.
    EXPECT_EQ(listener.told[i], (std::pair{fast.states[i].benchmark, i}));
  }
  EXPECT_EQ(listener.abandons, 0);
  EXPECT_EQ(listener.moving, 0) << "the states' room is reserved from the text's size";

  RecordingListener gave_up;
  const std::string escaped =
      R"({"devices": [{"id": 0}], "benchmarks": [{"name": "b", "states": [{"name": "s"}, )"
      R"({"name": "Device=0 T=\u0041"}]}]})";
  padded = escaped;
  padded.reserve(escaped.size() + fast_reader_padding());
  ASSERT_EQ(read_nvbench_fast(padded, padded.capacity(), dir / "n.json", fast, &gave_up),
            FastReadStatus::kGaveUp);
  EXPECT_EQ(gave_up.told.size(), 1u);
  EXPECT_EQ(gave_up.abandons, 1) << "the state told about is gone with the text";
}

TEST(NvbenchFastReader, GivesBackTheMappedTextItHasReadAndStillReadsEveryState) {
  // Over a megabyte of states, read from a mapped file: the pages passed are given back
  // as the walk goes on, and nothing read from them is lost.
  TempDir dir;
  const std::string text = many_states(3000);
  ASSERT_GT(text.size(), std::size_t{4} << 20);
  const auto path = dir.write("big.json", text);
  const ResultFile read = read_result_file(path, std::nullopt);
  expect_same_file(read, read_nvbench(parse_result_json(text, "big.json"), path));
  ASSERT_EQ(read.states.size(), 3000u);
  EXPECT_EQ(read.states[2999].state_key, "N=2999");
  EXPECT_EQ(read.states[2999].summary.median, 3.999);
}

TEST(NvbenchFastReader, SaysWhenTheFileIsNotNvbench) {
  ResultFile file;
  EXPECT_EQ(read_fast(R"({"context": {}, "benchmarks": []})", "g.json", file),
            FastReadStatus::kNotNvbench);
  EXPECT_EQ(read_fast(R"({"results": []})", "h.json", file), FastReadStatus::kNotNvbench);
}

TEST(NvbenchFastReader, LeavesEscapesWarningsAndMistakesToTheStrictReader) {
  ResultFile file;
  const std::string state_start =
      R"({"devices": [{"id": 0}], "benchmarks": [{"name": "b", "states": [)";
  // An escaped name, a negative bulk size (a warning), a mistyped field, trailing text.
  for (
      const std::string& text :
      {state_start + R"({"name": "Device=0 T=\u0041"}]}]})",
       state_start +
           R"({"name": "s", "summaries": [{"tag": "nv/json/bin:nv/cold/sample_times", "data": [{"name": "filename", "value": "x.bin"}, {"name": "size", "value": "-1"}]}]}]}]})",
       state_start + R"({"name": 7}]}]})", state_start + R"({"name": "s"}]}]} x)",
       state_start + R"({"name": "s"})"}) {
    EXPECT_EQ(read_fast(text, "n.json", file), FastReadStatus::kGaveUp) << text;
  }
}

TEST(NvbenchFastReader, LeavesTheStrictReadersMessageForAMalformedFile) {
  TempDir dir;
  dir.write("bad.json",
            R"({"devices": [{"id": 0}], "benchmarks": [{"name": "b", "states": [{"name": 7}]}]})");
  const std::string message = error_message([&] { read_result_file(dir / "bad.json"); });
  EXPECT_NE(message.find("bad.json: benchmarks[0].states[0].name: expected a string, found an "
                         "integer"),
            std::string::npos)
      << message;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
