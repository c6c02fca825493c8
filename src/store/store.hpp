#pragma once
// Where attempts and records live (SPEC §12): one interface, several backends, one test
// suite run against all of them. Attempts and records are immutable; the only later
// change is an approval that makes records baseline-eligible.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/attempt.hpp"
#include "model/error.hpp"
#include "model/normalized_record.hpp"
#include "store/approval.hpp"

namespace perfgate {

enum class AppendOutcome {
  kAppended,        ///< the attempt is new and is now stored with all its records
  kAlreadyPresent,  ///< identical content was stored before: nothing changed
};

/// Whether append may store a measurement (raw_record_sha256) that another attempt holds.
enum class RepeatedMeasurements {
  kRefuse,  ///< MeasurementsAlreadyStored: what compare, import and run store
  kKeep,    ///< store copy: the source's attempts exactly, whatever it held twice before
};

/// Thrown by append (kRefuse) inside its transaction: records of the attempt carry raw
/// digests that the store holds already, or twice in the attempt. Two writers that race
/// with one measurement so store it once. Error(kDataError), listing the digests.
class MeasurementsAlreadyStored : public Error {
 public:
  MeasurementsAlreadyStored(const std::string& store, const Attempt& attempt,
                            std::vector<std::string> raw_digests);
  /// The raw_record_sha256 values found stored, each once, in the attempt's order.
  const std::vector<std::string>& raw_digests() const { return raw_digests_; }

 private:
  std::vector<std::string> raw_digests_;
};

/// Which records to list. Empty fields do not filter.
struct RecordFilter {
  std::string benchmark_glob;  ///< shell glob over benchmark_id
  std::string since;           ///< ISO 8601; records at or after this instant
  std::optional<CohortKey> cohort;
  std::string workload_id;
  std::string variant_id;
  std::optional<long long> benchmark_version;
  std::size_t limit = 0;  ///< 0 = all
};

/// A record as the store holds it: the record plus what the store knows about it.
struct StoredRecord {
  NormalizedRecord record;
  std::string attempt_id;
  /// baseline_eligible as written, or made eligible by an approval.
  bool eligible = false;
};

struct AttemptSummary {
  std::string attempt_id;
  std::string created_at;
  std::string commit_sha;
  std::string run_source;
  bool success = true;
  std::size_t record_count = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  /// Appends an attempt and all its records in one transaction. The attempt must carry
  /// its attempt_id (assign_attempt_id). Re-appending identical content is a no-op;
  /// different content under an existing attempt_id or record_id is Error(kDataError)
  /// and changes nothing. A raw digest (raw_record_sha256) is stored once: a record whose
  /// non-empty digest another attempt holds, or the attempt holds twice, is
  /// MeasurementsAlreadyStored under kRefuse, decided inside the transaction.
  virtual AppendOutcome append(const Attempt& attempt, RepeatedMeasurements repeated) = 0;
  AppendOutcome append(const Attempt& attempt) {
    return append(attempt, RepeatedMeasurements::kRefuse);
  }

  /// The keys among `keys` that are already stored: a key matches a stored record whose
  /// raw_record_sha256 (the measurement it was normalised from) or record_id equals it.
  /// In the order given, each once. An empty key never matches.
  virtual std::vector<std::string> already_stored(const std::vector<std::string>& keys) = 0;

  /// The last `count` successful, eligible records of the cohort, newest first (by the
  /// instant of their timestamp, whatever its offset, then by insertion order).
  virtual std::vector<StoredRecord> baseline_records(const CohortKey& cohort,
                                                     std::size_t count) = 0;

  /// Records matching the filter, newest first (by instant, then insertion order).
  virtual std::vector<StoredRecord> list_records(const RecordFilter& filter) = 0;

  /// Every cohort that has at least one record, sorted.
  virtual std::vector<CohortKey> list_cohorts() = 0;

  /// Every attempt, newest first.
  virtual std::vector<AttemptSummary> list_attempts() = 0;

  /// The attempt as it was appended: its fields and its records in their order, so that
  /// its ids check against its content again (store copy). nullopt when not stored.
  virtual std::optional<Attempt> read_attempt(const std::string& attempt_id) = 0;

  /// Every approval with the records it names, sorted by approval_id.
  virtual std::vector<Approval> list_approvals() = 0;

  /// An opaque text that changes whenever anything is appended or approved.
  virtual std::string revision() = 0;

  /// Makes the records eligible in one transaction, if the store's revision is still
  /// `expected_revision`; otherwise Error(kDataError) saying the store changed, and
  /// nothing is marked. Unknown record ids: Error(kDataError), nothing marked.
  /// `approval_id` names the approval (the manifest's digest); approving the same
  /// approval twice is a no-op.
  virtual void approve(const std::vector<std::string>& record_ids, const std::string& approval_id,
                       const std::string& expected_revision) = 0;

  /// Whether an approval of this id is stored: lets `baseline approve` tell a manifest
  /// approved before from one whose store changed since prepare.
  virtual bool has_approval(const std::string& approval_id) = 0;

  /// The URL it was opened with, for messages.
  virtual std::string url() const = 0;
};

/// Opens a store by URL: "sqlite:PATH" (created if missing, with its folder) or
/// "dir:PATH" (created if missing). Error(kUsage) for an unknown scheme, Error(kNoInput)
/// when a path cannot be reached for reading, Error(kIoError) when it cannot be created
/// or is not a store of that kind.
std::unique_ptr<Store> open_store(const std::string& url);

/// Like open_store, for commands that only read a store (report, baseline): a store that
/// does not exist yet is Error(kNoInput) instead of being created.
std::unique_ptr<Store> open_existing_store(const std::string& url);

/// The store URL to use: the flag when given, else $PERFGATE_STORE, else perfgate.toml's
/// [store] url, else "sqlite:.perfgate/perfgate.db".
std::string resolve_store_url(const std::string& flag,
                              const std::optional<std::string>& project_url);

/// The store a command judges against, and whether the user named it or it is the default.
struct StoreChoice {
  std::string url;
  bool is_default = false;  ///< no flag, variable or perfgate.toml named a store
  /// The default store, with perfgate outside any project (cli/project_lookup.hpp): it is
  /// created only with --init, as a named store is.
  bool outside_project = false;
};
StoreChoice choose_store(const std::string& flag, const std::optional<std::string>& project_url);

/// The file or folder of a "sqlite:PATH" or "dir:PATH" store; nullopt for a server's URL.
std::optional<std::filesystem::path> store_local_path(const std::string& url);

/// Whether the store exists: its file or folder is there (a URL of an unknown scheme or
/// without a path counts as existing, so that open_store reports what is wrong with it).
bool store_exists(const std::string& url);

/// Opens the store that `compare` and `import` read baselines from and maybe write to.
/// Baselines are read strictly: a mistyped URL must not become a new, empty store that
/// passes everything. A store that does not exist is
/// - Error(kNoInput) naming the URL, unless `init` or the choice is the default store;
/// - else, when `will_write`, created (open_store);
/// - else an AbsentStore: nothing is created (upload never, dry run).
std::unique_ptr<Store> open_judging_store(const StoreChoice& choice, bool init, bool will_write);

}  // namespace perfgate
