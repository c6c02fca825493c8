# Writes OUTPUT, a C++ file holding the files of the viewer (SOURCE_DIR, web/viewer/) as
# bytes, so that `perfgate report --format html` and `perfgate serve` carry the dashboard
# inside the binary: nothing to install beside it, nothing fetched at run time.
#   cmake -DSOURCE_DIR=web/viewer -DOUTPUT=viewer_assets.cpp -P embed_viewer.cmake
# The scripts that bundle.txt lists are written as one file, bundle.js: their bytes in that
# order. The others (index.html, boot.js, the stylesheet) are written as they are.
file(STRINGS ${SOURCE_DIR}/bundle.txt bundled REGEX "^[^#]")
set(bundle_hex "")
foreach(name IN LISTS bundled)
  if(NOT EXISTS ${SOURCE_DIR}/${name})
    message(FATAL_ERROR "bundle.txt lists ${name}, which web/viewer/ does not have")
  endif()
  file(READ ${SOURCE_DIR}/${name} hex HEX)
  string(APPEND bundle_hex "${hex}")
endforeach()
file(GLOB files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.html ${SOURCE_DIR}/*.js ${SOURCE_DIR}/*.css)
list(REMOVE_ITEM files ${bundled})
list(APPEND files bundle.js)
list(SORT files)
set(arrays "")
set(table "")
set(index 0)
foreach(name IN LISTS files)
  if(name STREQUAL "bundle.js")
    set(hex "${bundle_hex}")
  else()
    file(READ ${SOURCE_DIR}/${name} hex HEX)
  endif()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # Lines of a reasonable length, for compilers and for people.
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n" bytes "${bytes}")
  if(name MATCHES "\\.html$")
    set(type "text/html; charset=utf-8")
  elseif(name MATCHES "\\.css$")
    set(type "text/css; charset=utf-8")
  else()
    set(type "text/javascript; charset=utf-8")
  endif()
  string(APPEND arrays "const unsigned char k${index}[] = {\n${bytes}};\n")
  string(APPEND table "    {\"${name}\", bytes_of(k${index}, sizeof k${index}), \"${type}\"},\n")
  math(EXPR index "${index} + 1")
endforeach()
set(text "// Written by cmake/embed_viewer.cmake from web/viewer/: do not edit.
#include \"report/viewer_assets.hpp\"

namespace perfgate {
namespace {
std::string_view bytes_of(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}
${arrays}}  // namespace

std::span<const ViewerAsset> viewer_assets() {
  static const ViewerAsset assets[] = {
${table}  };
  return assets;
}

}  // namespace perfgate
")
# Rewritten only when it changes, so that an unchanged viewer rebuilds nothing.
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()
