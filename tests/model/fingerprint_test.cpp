#include "model/fingerprint.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A recipe shaped like the ones the harness builds: identity, command, input
// digests, run settings, parameters and environment.
Json realistic_recipe() {
  return Json::parse(R"({
    "identity": {"workload_id": "wan-t2v", "variant_id": "1.3b-sp2", "benchmark_version": 3},
    "command": ["./bench", "--frames", "45", "--height", "480"],
    "cwd": "bench",
    "inputs": {"prompts.txt": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    "run_config": {"num_warmup_runs": 1, "num_measurement_runs": 3, "timeout_s": 600.5,
                   "device_types": ["H100", "L40S"], "required_gpus": 2},
    "parameters": {"batch": 8, "precision": "bf16", "compile": true},
    "env": {"OMP_NUM_THREADS": "8", "ATTENTION_BACKEND": "FLASH_ATTN"}
  })");
}

// A different value of the same type, so only the value changes, never the shape.
Json changed(const Json& leaf) {
  if (leaf.is_boolean()) return !leaf.get<bool>();
  if (leaf.is_number_integer()) return leaf.get<std::int64_t>() + 1;
  if (leaf.is_number_float()) return leaf.get<double>() + 0.25;
  return leaf.get<std::string>() + "x";
}

TEST(Sha256, MatchesTheKnownDigestsOfTheEmptyStringAndAbc) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, HashesAFileLargerThanOneReadChunkLikeItsContents) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("perfgate-test-fingerprint-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::string contents;
  for (int i = 0; contents.size() < 200'000; ++i) contents += std::to_string(i) + "\n";
  const auto path = (dir / "input.bin").string();
  std::ofstream(path, std::ios::binary) << contents;
  const std::string digest = sha256_file(path);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(digest, sha256_hex(contents));
}

TEST(Sha256, ReportsAMissingFileAsNoInputNamingThePath) {
  try {
    sha256_file("/nonexistent/perfgate/prompts.txt");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kNoInput);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfgate/prompts.txt"), std::string::npos);
  }
}

TEST(CanonicalJson, WritesTheExactCanonicalTextOfATrickyValue) {
  Json value = Json::parse(R"({
    "z": [1, 2.5, -3, 0.1, 1e21, 1.5e-7, 3.0, -0.0, 18446744073709551615, -9007199254740993],
    "a": {"y": null, "b": [true, false, {}, []]},
    "\u00e9": "caf\u00e9 \u2603 \ud83d\ude00",
    "esc": "quote\" backslash\\ slash/ \b\f\n\r\t \u0001 \u001f \u007f",
    "B": ""
  })");
  EXPECT_EQ(canonical_json(value),
            "{\"B\":\"\","
            "\"a\":{\"b\":[true,false,{},[]],\"y\":null},"
            "\"esc\":\"quote\\\" backslash\\\\ slash/ \\b\\f\\n\\r\\t \\u0001 \\u001f \x7f\","
            "\"z\":[1,2.5,-3,0.1,1e+21,1.5e-07,3,0,18446744073709551615,-9007199254740993],"
            "\"\xC3\xA9\":\"caf\xC3\xA9 \xE2\x98\x83 \xF0\x9F\x98\x80\"}");
}

TEST(CanonicalJson, SortsKeysByTheirUtf8BytesSoNonAsciiKeysFollowAscii) {
  Json value = Json::object();
  value["\xC3\xA9"] = 1;  // 0xC3 sorts after every ASCII byte
  value["z"] = 2;
  value["Z"] = 3;
  EXPECT_EQ(canonical_json(value), "{\"Z\":3,\"z\":2,\"\xC3\xA9\":1}");
}

TEST(CanonicalJson, WritesFloatsAtAndBeyondTwoToThe53InShortestForm) {
  EXPECT_EQ(canonical_json(Json(9007199254740991.0)), "9007199254740991");
  EXPECT_EQ(canonical_json(Json(9007199254740992.0)), "9007199254740992");
  EXPECT_EQ(canonical_json(Json(1e300)), "1e+300");
  EXPECT_EQ(canonical_json(Json(-2.5e-300)), "-2.5e-300");
  EXPECT_EQ(canonical_json(Json(123456.789)), "123456.789");
}

TEST(CanonicalJson, RejectsNaNAndInfinityAsDataErrors) {
  for (double v : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    try {
      canonical_json(Json{{"timeout_s", v}});
      FAIL() << "expected an Error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kDataError);
    }
  }
}

TEST(CanonicalJson, RejectsStringsThatAreNotValidUtf8) {
  for (const char* bad :
       {"\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "\xE2\x28\xA1"}) {
    EXPECT_THROW(canonical_json(Json(std::string(bad))), Error) << bad;
    EXPECT_THROW(canonical_json(Json{{std::string(bad), 1}}), Error) << bad;
  }
}

TEST(Fingerprint, IsTheSameForTheSameRecipeWrittenWithOtherKeyOrderAndWhitespace) {
  const Json compact = Json::parse(
      R"({"command":["./bench","-n","3"],"run_config":{"timeout_s":60,"num_measurement_runs":3}})");
  const Json spread = Json::parse(R"({
      "run_config" : { "num_measurement_runs" : 3 ,
                       "timeout_s" : 60 },
      "command" : [ "./bench", "-n", "3" ]
  })");
  EXPECT_EQ(fingerprint(compact), fingerprint(spread));
  EXPECT_EQ(fingerprint(compact), sha256_hex(canonical_json(compact)));
}

TEST(Fingerprint, IsTheSameForAnIntegerAndTheEqualFloat) {
  EXPECT_EQ(fingerprint(Json::parse(R"({"timeout_s": 3})")),
            fingerprint(Json::parse(R"({"timeout_s": 3.0})")));
  EXPECT_NE(fingerprint(Json::parse(R"({"timeout_s": 3})")),
            fingerprint(Json::parse(R"({"timeout_s": "3"})")));
}

TEST(Fingerprint, ChangesWhenAnySingleFieldOfARecipeChanges) {
  const Json recipe = realistic_recipe();
  const std::string original = fingerprint(recipe);
  const Json leaves = recipe.flatten();
  ASSERT_EQ(leaves.size(), 21u);
  for (const auto& [pointer, leaf] : leaves.items()) {
    Json edited = recipe;
    edited[Json::json_pointer(pointer)] = changed(leaf);
    EXPECT_NE(fingerprint(edited), original) << "changing " << pointer << " kept the fingerprint";
  }
}

TEST(Fingerprint, ChangesWhenAFieldIsAddedRemovedOrReordered) {
  const Json recipe = realistic_recipe();
  const std::string original = fingerprint(recipe);

  Json added = recipe;
  added["env"]["CUDA_VISIBLE_DEVICES"] = "0";
  EXPECT_NE(fingerprint(added), original);

  Json removed = recipe;
  removed["parameters"].erase("compile");
  EXPECT_NE(fingerprint(removed), original);

  Json reordered = recipe;  // argument order is meaningful, key order is not
  std::swap(reordered["command"][1], reordered["command"][2]);
  EXPECT_NE(fingerprint(reordered), original);
}

TEST(ProfileId, IsThePrefixAndTheFirstSixteenHexDigitsOfTheFingerprint) {
  const Json profile{{"cpu_model", "AMD EPYC 7B13"}};
  const std::string id = profile_id("hw", profile);
  EXPECT_EQ(id, "hw-" + fingerprint(profile).substr(0, 16));
  EXPECT_EQ(profile_id("hw", Json::object()), "hw-44136fa355b3678a");  // sha256("{}")
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
