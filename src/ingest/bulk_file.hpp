#pragma once
// nvbench --jsonbin side files: where they are. Reading them is load_bulk_file
// (result_file.hpp), called only by whoever needs the samples.
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

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

/// What the folders of bulk files hold, listed once each: an nvbench file names thousands
/// of bulk files in one or two folders, and a stat per name cost more than parsing the
/// JSON (2,040 names: 12 ms against one listing's 0.3 ms). Answers as
/// std::filesystem::exists does; entries the listing cannot type (links) are looked at.
class BulkFolders {
 public:
  bool exists(const std::filesystem::path& path);
  /// exists(folder / name) for a plain file name (not "", "." or ".."); `folder` "" is
  /// the working directory.
  bool exists_in(const std::string& folder, const std::string& name);

 private:
  struct Listing {
    std::unordered_set<std::string> plain;    ///< entries that surely exist
    std::unordered_set<std::string> unclear;  ///< links and untyped entries: stat them
  };
  /// nullopt: the folder could not be listed (missing, or not readable), so ask per file.
  std::unordered_map<std::string, std::optional<Listing>> folders_;
};

/// resolve_bulk_path, with the folders' listings kept in `folders` between calls.
std::filesystem::path resolve_bulk_path(const std::filesystem::path& json_file,
                                        const std::string& written_name, BulkFolders& folders);

/// resolve_bulk_path for the usual name, in text: a relative name of plain components
/// ("out.json-bin/12.bin") that exists beside the JSON, whose folder is `json_folder`
/// (json_file.parent_path(), as text). nullopt for every other name, which
/// resolve_bulk_path then settles. An nvbench file names thousands of bulk files, and
/// building a std::filesystem::path for each (its components split and allocated) cost
/// a tenth of reading the JSON.
std::optional<std::string> bulk_path_beside(const std::string& json_folder,
                                            const std::string& written_name, BulkFolders& folders);

}  // namespace perfgate::ingest
