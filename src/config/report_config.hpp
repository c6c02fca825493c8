#pragma once
// perfgate.toml's [report] table: what `perfgate report` and `perfgate serve` add to the
// dashboard they write or serve (docs/configs.md, docs/store-json.md).
#include <string>

#include "config/config_value.hpp"

namespace perfgate {

struct ReportConfig {
  /// A commit's page, with "{sha}" for its SHA: the store view's commits link there. ""
  /// when not set (then [history] commit_url, if any, is used).
  std::string commit_url;
};

/// Reads a [report] table; every error of the table is reported at once, unknown keys
/// with the nearest known one suggested.
ReportConfig read_report_config(const ConfigValue& value);

}  // namespace perfgate
