#pragma once
// Text from data (benchmark names, metric names, parameter values, messages of other
// tools) on its way to a terminal or a file: a control character is shown as \xNN, so an
// ESC cannot drive the terminal, a NUL cannot cut a message short and a BEL stays silent.
#include <string>
#include <string_view>

namespace perfgate {

/// `text` with every C0 control character and DEL written as \xNN; newlines and tabs are
/// kept when `keep_line_breaks` (a multi-line message), else escaped too.
std::string visible_text(std::string_view text, bool keep_line_breaks = false);

}  // namespace perfgate
