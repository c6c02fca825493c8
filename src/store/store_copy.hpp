#pragma once
// `perfgate store copy SRC DST` (SPEC §12): every attempt and approval of one store into
// another, of any backend. Each attempt is appended as it was (same ids, same records in
// the same order), so a copy run again finds everything present and changes nothing, and a
// copy interrupted halfway is finished by running it again. Each attempt's ids are checked
// against its content as it is appended, and at the end every attempt is read back from the
// destination and compared with the source's, field by field.
#include <cstddef>
#include <functional>

#include "store/store.hpp"

namespace perfgate {

struct StoreCopyOutcome {
  std::size_t attempts = 0;  ///< in the source
  std::size_t attempts_copied = 0;
  std::size_t records = 0;  ///< in the source's attempts
  std::size_t records_copied = 0;
  std::size_t approvals = 0;
  std::size_t approvals_copied = 0;
  std::size_t verified = 0;  ///< attempts read back from the destination equal to the source's
};

/// Called after each attempt: how many are done of how many.
using StoreCopyProgress = std::function<void(std::size_t done, std::size_t total)>;

/// Error(kDataError) when a source attempt does not check against its content, when the
/// destination holds other content under an id of the source, or when what the destination
/// gives back differs from the source (attempts already copied stay copied).
StoreCopyOutcome copy_store(Store& source, Store& destination, const StoreCopyProgress& progress);

}  // namespace perfgate
