#pragma once
// The titles people read for the store view's cohorts (docs/store-json.md, "Labels"): the
// workload and variant, then only what tells a cohort apart from its siblings. The hashes
// stay in the cohort's id and identity, where the viewer's detail pane shows them.
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// One label per cohort, given the newest record of each (distinct cohorts, any order):
///  - a v2 cohort reads "<workload>/<variant>", with "/v<N>" when its siblings (the cohorts
///    of the same workload and variant) differ by benchmark_version;
///  - then, in parentheses, "axis=value" for each parameter whose value differs among its
///    siblings, by axis name: "sort/default (n=200000)";
///  - then, while siblings still read the same, the first identity field that tells them
///    apart (hardware profile, software profile, recipe), as the shortest prefix of its
///    hash that no other of them shares, 4 characters at least: "sort/default (n=200000,
///    hw-1a2b)", "sort/default (recipe 3f2a)".
/// Legacy and incomplete cohorts keep cohort_label's titles ("Legacy v1 (old, cpu)").
std::vector<std::string> store_view_labels(const std::vector<const NormalizedRecord*>& cohorts);

}  // namespace perfgate
