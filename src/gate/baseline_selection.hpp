#pragma once
// Which stored records may seed a baseline, and what still stands in the way of
// approving a manifest (SPEC §6). Pure: the command lists the store's records and hands
// them over.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gate/baseline_manifest.hpp"
#include "store/store.hpp"

namespace perfgate {

/// A record may seed in `mode` when it is successful, from a trusted run source, has a
/// complete cohort and is not yet eligible, and its status fits the mode: CALIBRATION_NEEDED
/// for a calibration; PASS, REGRESSION or INCONCLUSIVE for a re-seed (a rolling-baseline regression
/// keeps success; static breaches and INFRA_ERROR do not, so they never qualify).
bool qualifies_for_seeding(const StoredRecord& stored, SeedMode mode,
                           const std::vector<std::string>& trusted_run_sources);

/// The batch a record belongs to: its commit, else its CI build, else "" (unknown).
std::string batch_of(const NormalizedRecord& record);

struct SeedSelection {
  std::vector<StoredRecord> records;  ///< to seed, in the order given
  /// What the user should know: the batches left out.
  std::vector<std::string> notes;
  /// Records that would qualify but for their run source, by run source: why nothing
  /// qualified on a laptop, whose runs are "local".
  std::map<std::string, std::size_t> untrusted_sources;
};

/// Selects the records that qualify. Unless `allow_mixed_batches`, each cohort keeps only
/// the records of its newest batch (the batch of its newest record), and a note names
/// the batches left out.
SeedSelection select_seed_records(const std::vector<StoredRecord>& records, SeedMode mode,
                                  const std::vector<std::string>& trusted_run_sources,
                                  bool allow_mixed_batches);

/// Whether re-seeding `reseeded` records (the cohort's newest) into a cohort that has
/// `eligible` eligible records makes them the median of its last five: they must
/// outnumber the older records that stay among those five (3 of 5; 2 beside 1).
bool reseed_sets_median(std::size_t reseeded, std::size_t eligible);

/// Records measured within a minute of one another show one moment of the machine: ten
/// records back to back here scattered 0.5-2.4% while the machine's level moved 5-6% in the
/// next two minutes, and records 10 s apart scattered 3.4% (docs/compare.md).
constexpr std::int64_t kOneMomentUs = 60'000'000;

/// A note per cohort whose records in `records` (two or more, with timestamps that are
/// instants) were all measured within kOneMomentUs of one another: `--method stat` takes
/// their scatter for all the noise between records, so a record of another moment may be
/// judged with too narrow an interval. "cohort C: its 10 record(s) were measured within
/// 6 s of one another: …". In cohort order.
std::vector<std::string> one_moment_notes(const std::vector<StoredRecord>& records);

/// What stands in the way of approving: a record that is no longer in the store, whose
/// content changed, that is already eligible or no longer qualifies for the manifest's
/// mode, and a cohort whose records span several batches when the manifest does not
/// allow it. Empty when the manifest can be approved. `current` are the store's records.
std::vector<std::string> manifest_problems(const BaselineManifest& manifest,
                                           const std::vector<StoredRecord>& current,
                                           const std::vector<std::string>& trusted_run_sources);

}  // namespace perfgate
