#pragma once
// nvbench --jsonbin side files: where they are. Reading them is load_bulk_file
// (result_file.hpp), called only by whoever needs the samples.
#include <filesystem>
#include <string>

namespace perfgate::ingest {

/// Where the bulk file `written_name` (as the JSON states it) of the JSON file `json_file`
/// is, by nvbench's own rule: an absolute name as it is; else relative to the JSON's
/// folder if that exists; else, when a component of the name is "<json name>-bin" or
/// "<json name>-freqs-bin", the rest of the name from there relative to the JSON's folder
/// if that exists (the folder was moved with its JSON); else relative to the folder above
/// the JSON's if that exists (nvbench wrote names relative to where it ran, and the JSON
/// sits in a folder below); else relative to the JSON's folder, which a later read then
/// reports as missing. Looks at the file system (existence only); opens nothing.
std::filesystem::path resolve_bulk_path(const std::filesystem::path& json_file,
                                        const std::string& written_name);

}  // namespace perfgate::ingest
