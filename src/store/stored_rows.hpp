#pragma once
// Rows of a database store's records table turned into StoredRecords, shared by the SQLite
// and PostgreSQL backends so that both order and read records exactly alike.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/store.hpp"

namespace perfgate {

struct StoredRow {
  std::string record_id;
  std::string json;  ///< the record's content text, without its id
  std::string attempt_id;
  bool eligible = false;
  std::optional<double> instant;  ///< the timestamp's instant; nullopt when it is not one
  std::string timestamp;
  long long seq = 0;  ///< insertion order
};

/// A stored record whose content no longer matches its id (a flipped byte on disk, an
/// edit of the database): it is left out of every listing, and named.
struct DamagedRecord {
  std::string store;
  std::string record_id;  ///< empty when the whole attempt is damaged (see `why`)
  std::string attempt_id;
  /// What is wrong when it is not the record's content ("does not parse", "its header no
  /// longer matches its id"); empty for a record whose content does not match its id.
  std::string why;
};

/// Notes a damaged record (or attempt) once per process: it joins damaged_records_seen(),
/// with a warning on stderr naming it and saying that the other records are read.
void note_damaged_record(const DamagedRecord& record);

/// Every damaged record this process has read so far, in the order it found them (the
/// `perfgate store check` report). Thread-safe.
std::vector<DamagedRecord> damaged_records_seen();

/// Whether every field of the cohort key is there: a cohort with an empty one has no
/// baseline and lists nothing.
bool cohort_is_complete(const CohortKey& key);

/// An attempt's header as a database store keeps it: the canonical JSON of its fields,
/// without its records.
std::string attempt_header_text(const Attempt& attempt);

/// Newest first: by instant (rows without one last), then timestamp text byte by byte,
/// then the later insertion.
void sort_newest_first(std::vector<StoredRow>& rows);

/// Reads every row's record (on every core), each checked against its id: the SHA-256 of
/// the stored text, else of the record's content read back from it. A record that fails
/// the check is left out, with a warning on stderr naming it and its attempt (once per
/// process), and joins damaged_records_seen(); every other record is read. With
/// `strict`, the first damaged row is Error(kDataError) instead: an attempt read whole
/// (store copy) must not lose a record on the way. A row whose JSON does not parse is
/// Error(kDataError) naming `store_url` and the record.
std::vector<StoredRecord> read_stored_rows(std::vector<StoredRow>&& rows,
                                           const std::string& store_url, bool strict = false);

/// An attempt put back together from a database store's texts: its header (the canonical
/// attempt_header_json) and each record's id and content text, in their order.
/// Error(kDataError) naming `source` when a text does not read.
Attempt attempt_from_stored_texts(const std::string& header,
                                  const std::vector<std::pair<std::string, std::string>>& records,
                                  const std::string& source);

/// Approvals from (approval_id, record_id, created_at) rows sorted by approval_id.
std::vector<Approval> approvals_from_rows(const std::vector<std::array<std::string, 3>>& rows);

}  // namespace perfgate
