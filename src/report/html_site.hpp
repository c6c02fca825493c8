#pragma once
// `perfgate report --format html -o DIR`: the dashboard as a folder that works opened from
// disk, served by any web server under any sub-path, or copied anywhere: the viewer's files
// (viewer_assets) and the data beside them as scripts (data/store.js, data/history.js),
// since a page opened from disk may run a script next to it but not fetch a file.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct HtmlSiteData {
  std::optional<std::string> store_view;  ///< store.json text (docs/store-json.md)
  std::optional<std::string> history;     ///< history.json text (docs/history-json.md)
  /// With `store_view` written apart (write_store_view_apart): each cohort's details
  /// document, the first one data/cohorts/1.js (window.PERFGATE_COHORT_1), and so on.
  std::vector<std::string> cohort_details = {};
};

/// The script that hands a JSON document to the viewer: "window.<name> = '<json>';\n", the
/// JSON text as a single-quoted string (backslashes, quotes and line breaks escaped) that
/// the viewer parses with JSON.parse.
std::string data_script(const std::string& global_name, const std::string& json_text);

/// One file of a document's data scripts: its name in data/ and its text.
struct DataScriptFile {
  std::string name;
  std::string text;
};

/// The bytes of JSON text per data script: a browser reads a large document as several
/// scripts side by side in much less time than as one (docs/dashboard.md, "Large sites").
inline constexpr std::size_t kDataPartBytes = 2 * 1024 * 1024;

/// The data scripts of the document `json_text` named `stem` ("store" -> data/store.js):
/// one file, data_script's, while the text fits in `part_bytes`; otherwise the text cut into
/// parts of at most `part_bytes` (never inside a UTF-8 sequence): "<stem>.js" sets
/// window.<name>_PARTS (their count), "<stem>.1.js" sets window.<name>_1 (the first part's
/// text, quoted as data_script quotes it), "<stem>.2.js" window.<name>_2, and so on. The
/// viewer joins the parts' texts and parses the result.
std::vector<DataScriptFile> data_scripts(const std::string& stem, const std::string& global_name,
                                         const std::string& json_text,
                                         std::size_t part_bytes = kDataPartBytes);

/// Checks that `text` is a history.json this viewer reads (valid JSON, kind
/// "perfgate-history", a known schema_version); Error(kDataError) "<source>: <reason>. <fix>"
/// otherwise.
void check_history_document(const std::string& text, const std::string& source);

/// The text of the history.json file at `path`, checked as check_history_document does;
/// Error(kNoInput) "--history: <path>: cannot open it. <fix>" when it cannot be read.
std::string read_history_file(const std::string& path);

/// The file write_html_site puts in every site it writes: the mark that a folder is
/// perfgate's to replace.
inline constexpr const char* kSiteMarker = ".perfgate-site";

/// The refusals of write_html_site, before any work (docs/reports.md, "Where the site
/// goes"). Error(kUsage) for an existing file; for the current folder or one that holds it;
/// for a folder that holds one of `inputs` (the files the site is made from); for a
/// non-empty folder without kSiteMarker, even with `force` (perfgate replaces only what it
/// wrote); for a non-empty site without `force`. Error(kNoInput) for a missing parent.
/// `kept` are inputs the site may hold and keeps, at the same place in the new site (the
/// history.json of `history export -o site/history.json`): a folder that holds nothing else
/// is the site's to write, without `force`; one named like a file of the site is refused.
void check_html_site_target(const std::filesystem::path& dir, bool force,
                            const std::vector<std::filesystem::path>& inputs = {},
                            const std::vector<std::filesystem::path>& kept = {});

/// Writes the site into `dir` whole or not at all: into a temporary folder beside it, then
/// renamed into place, after the checks of check_html_site_target (an earlier site is
/// replaced only with `force`).
void write_html_site(const std::filesystem::path& dir, const HtmlSiteData& data, bool force,
                     const std::vector<std::filesystem::path>& inputs = {},
                     const std::vector<std::filesystem::path>& kept = {});

}  // namespace perfgate
