#pragma once
// The dashboard viewer's files (web/viewer/), compiled into perfgate by
// cmake/embed_viewer.cmake: `report --format html` writes them out, `serve` serves them.
#include <span>
#include <string_view>

namespace perfgate {

struct ViewerAsset {
  std::string_view path;  ///< relative to the site's root: "index.html", "viewer.js", ...
  std::string_view content;
  std::string_view content_type;  ///< for HTTP: "text/html; charset=utf-8", ...
};

/// Every file of the viewer, sorted by path.
std::span<const ViewerAsset> viewer_assets();

}  // namespace perfgate
