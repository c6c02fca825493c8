#pragma once
// Links that perfgate.toml hands to the viewer, which puts them in an href: checked when
// the file is read, so that no page perfgate writes can link to javascript: or data:.
#include <string>
#include <string_view>

#include "config/config_value.hpp"

namespace perfgate {

/// An http(s) address, or (when `relative_allowed`) a path relative to the page: nothing
/// else, no space, quote, '<', '>' or control character, at most 2,000 bytes. `fix` ends
/// each error.
std::string link_setting(const ConfigValue& value, bool relative_allowed, std::string_view fix);

/// A commit's page with "{sha}" where its SHA goes ([history] and [report] commit_url): an
/// http(s) address as link_setting checks it, holding "{sha}".
std::string commit_url_setting(const ConfigValue& value);

}  // namespace perfgate
