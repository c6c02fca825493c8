#pragma once
// The recipe: the canonical description of what was measured (SPEC §1). Its fingerprint
// decides which records may be compared, so only what changes the measurement enters it.
#include <string>
#include <utility>
#include <vector>

#include "config/benchmark_config.hpp"
#include "model/json.hpp"

namespace perfgate {

struct InputDigest {
  std::string path;  ///< as it appears relative to the config's folder
  std::string sha256;
};

/// Digests of the config's inputs (reads the files; Error(kNoInput) if one vanished).
std::vector<InputDigest> digest_inputs(const BenchmarkConfig& config);

/// The recipe JSON of a state. v2 configs identify the benchmark by workload, variant and
/// version only, so renaming benchmark_id does not open a new cohort; v1 configs have no
/// other identity and use benchmark_id. `counter` is the counting backend's recipe
/// (CounterBackend::recipe) when the config measures instructions: the recipe's
/// `measure` then says which kinds were measured and how the counts were made, so that
/// counts of different backends never share a cohort. A time-only recipe is as before.
Json build_recipe(const BenchmarkState& state, const std::vector<InputDigest>& inputs,
                  const Json& counter = nullptr);

}  // namespace perfgate
