#pragma once
// `perfgate diff --bulk-debug-python`: a Python script listing, for every displayed row,
// where its bulk sample and frequency files are, with a load_bulk_data(row) helper that
// reads them with numpy. Wrapped in "# NVB-BULK-BEGIN" / "# NVB-BULK-END" comment lines so
// the block can be cut out of a longer output and fed to a Python REPL.
#include <string>

#include "diff/diff_run.hpp"

namespace perfgate {

std::string render_bulk_debug_python(const diff::DiffOutcome& outcome,
                                     const std::string& reference_path,
                                     const std::string& compare_path, double threshold);

}  // namespace perfgate
