#pragma once
// Where and when a record was measured: the same for every record of one `perfgate run`.
#include <string>

#include "model/json.hpp"

namespace perfgate {

struct Provenance {
  std::string timestamp;  ///< start of the invocation, ISO 8601 UTC, e.g. 2026-11-30T11:37:04Z
  std::string device;     ///< the device name device_types and thresholds are matched against
  Json hardware_profile = Json::object();
  std::string hardware_profile_id;  ///< hw-<prefix>
  Json software_profile = Json::object();
  std::string software_profile_id;             ///< sw-<prefix>
  Json environment_metadata = Json::object();  ///< audit only, never part of a cohort
  std::string environment_fingerprint;         ///< env-<prefix>
  Json ci = Json::object();
  std::string run_source = "local";
};

}  // namespace perfgate
