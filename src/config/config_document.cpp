#include "config/config_document.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "model/error.hpp"

namespace perfgate {

const ConfigNode* ConfigNode::find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

Json ConfigNode::to_json() const {
  switch (kind) {
    case Kind::kTable: {
      Json object = Json::object();
      for (const auto& [name, value] : members) object[name] = value.to_json();
      return object;
    }
    case Kind::kArray: {
      Json array = Json::array();
      for (const auto& item : items) array.push_back(item.to_json());
      return array;
    }
    case Kind::kString:
    case Kind::kDateTime:
      return text;
    case Kind::kInteger:
      return integer;
    case Kind::kFloat:
      return number;
    case Kind::kBoolean:
      return boolean;
    case Kind::kNull:
      break;
  }
  return nullptr;
}

std::string describe_kind(ConfigNode::Kind kind, ConfigFormat format) {
  switch (kind) {
    case ConfigNode::Kind::kTable:
      return format == ConfigFormat::kJson ? "an object" : "a table";
    case ConfigNode::Kind::kArray:
      return "an array";
    case ConfigNode::Kind::kString:
      return "a string";
    case ConfigNode::Kind::kInteger:
      return "an integer";
    case ConfigNode::Kind::kFloat:
      return "a floating-point number";
    case ConfigNode::Kind::kBoolean:
      return "a boolean";
    case ConfigNode::Kind::kNull:
      return "null";
    case ConfigNode::Kind::kDateTime:
      return "a date/time";
  }
  return "an unknown value";
}

namespace {

std::string read_whole_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throw Error(ExitCode::kNoInput,
                file.string() + ": is a folder, not a config file. Name a .json or .toml file");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ExitCode::kNoInput, file.string() + ": cannot read the file (" +
                                        std::strerror(errno) + "). Check the path");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ConfigDocument read_config_document(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension != ".json" && extension != ".toml") {
    throw Error(ExitCode::kDataError, file.string() + ": unsupported config format '" + extension +
                                          "'. Use a .json or .toml file");
  }
  const std::string text = read_whole_file(file);
  return extension == ".json" ? parse_json_document(file, text) : parse_toml_document(file, text);
}

}  // namespace perfgate
