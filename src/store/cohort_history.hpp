#pragma once
// The queries a judgement needs, done by the command before it calls the judge: for each
// cohort of a batch, its rolling baseline and the other trusted recipes of its family.
#include <string>
#include <vector>

#include "model/cohort_history.hpp"
#include "store/store.hpp"

namespace perfgate {

/// The history of every cohort of `batch`. A stored record that came from the same raw
/// record as a record of the batch (the same raw_record_sha256) never enters the
/// baseline: a batch is not judged against itself, however often it was uploaded. Stored
/// records with no measured metric take no baseline slot. Trusted run sources decide
/// which records of other recipes make a RECIPE_MISMATCH. With `history_size` above the
/// baseline's five, each cohort's history holds that many of its newest usable records.
CohortHistories fetch_cohort_histories(Store& store, const std::vector<NormalizedRecord>& batch,
                                       const std::vector<std::string>& trusted_run_sources,
                                       std::size_t history_size = 0);

}  // namespace perfgate
