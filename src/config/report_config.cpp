#include "config/report_config.hpp"

#include "config/link_setting.hpp"

namespace perfgate {

ReportConfig read_report_config(const ConfigValue& value) {
  ReportConfig config;
  ErrorList errors;
  const ConfigTable table(value, {"commit_url"}, errors);
  errors.check([&] {
    if (auto v = table.get("commit_url")) config.commit_url = commit_url_setting(*v);
  });
  errors.throw_if_any();
  return config;
}

}  // namespace perfgate
