// JSON -> ConfigNode through nlohmann's SAX interface: it keeps keys in file order and
// lets us see duplicate keys, which a DOM parse would silently collapse.
#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>

#include "config/config_document.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

class ConfigTreeBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  ConfigTreeBuilder(const std::filesystem::path& file, const std::string& text)
      : file_(file), text_(text) {}

  bool null() { return add(ConfigNode{}) != nullptr; }
  bool boolean(bool value) {
    ConfigNode node;
    node.kind = ConfigNode::Kind::kBoolean;
    node.boolean = value;
    return add(std::move(node)) != nullptr;
  }
  bool number_integer(number_integer_t value) {
    ConfigNode node;
    node.kind = ConfigNode::Kind::kInteger;
    node.integer = value;
    return add(std::move(node)) != nullptr;
  }
  bool number_unsigned(number_unsigned_t value) {
    ConfigNode node;
    // Beyond long long nothing in a config is meaningful as an integer; keep the magnitude.
    if (value > static_cast<number_unsigned_t>(std::numeric_limits<long long>::max())) {
      node.kind = ConfigNode::Kind::kFloat;
      node.number = static_cast<double>(value);
    } else {
      node.kind = ConfigNode::Kind::kInteger;
      node.integer = static_cast<long long>(value);
    }
    return add(std::move(node)) != nullptr;
  }
  bool number_float(number_float_t value, const string_t&) {
    ConfigNode node;
    node.kind = ConfigNode::Kind::kFloat;
    node.number = value;
    return add(std::move(node)) != nullptr;
  }
  bool string(string_t& value) {
    ConfigNode node;
    node.kind = ConfigNode::Kind::kString;
    node.text = value;
    return add(std::move(node)) != nullptr;
  }
  bool binary(binary_t&) { return false; }  // never produced by the text parser

  bool start_object(std::size_t) { return open(ConfigNode::Kind::kTable); }
  bool start_array(std::size_t) { return open(ConfigNode::Kind::kArray); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& key) {
    const Open& table = open_.back();
    if (table.node->find(key) != nullptr) {
      const std::string path = join(table.path, key);
      error_ = Error(ExitCode::kDataError, file_.string() + ": " + path + ": duplicate key '" +
                                               key + "'. Keep only one of the two entries");
      return false;
    }
    pending_key_ = key;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) {
    // nlohmann's message reads "... parse error at line L, column C: <reason>"; its
    // position is just past the character that broke the parse.
    const std::string what = ex.what();
    const auto column_at = what.find("column ");
    const auto colon = column_at == std::string::npos ? column_at : what.find(": ", column_at);
    std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    // Drop the echo of the text read so far; line and column already point there.
    if (const auto echo = reason.find("; last read: "); echo != std::string::npos) {
      const auto expected = reason.find("; expected", echo);
      reason.erase(echo, expected == std::string::npos ? std::string::npos : expected - echo);
    }
    const auto [line, column] = line_and_column(position);
    error_ = Error(ExitCode::kDataError, file_.string() + ":" + std::to_string(line) + ":" +
                                             std::to_string(column) + ": " + reason +
                                             ". Fix the JSON syntax at that position");
    return false;
  }

  ConfigNode take_root() { return std::move(root_); }
  const std::optional<Error>& error() const { return error_; }

 private:
  struct Open {
    ConfigNode* node;
    std::string path;
  };

  // 1-based line and column of the last character read before `position`. When that
  // character is whitespace (a literal cut short by a newline), point at the last
  // character of the token instead, so the column is never 0 or past the line's end.
  std::pair<int, int> line_and_column(std::size_t position) const {
    std::size_t at = std::min(position, text_.size());
    while (at > 1 && std::isspace(static_cast<unsigned char>(text_[at - 1])) != 0) --at;
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i + 1 < at; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return {line, static_cast<int>(at - line_start)};
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  // Adds a finished value to the open container (or makes it the root) and returns
  // where it now lives. A parent's vector does not grow while a child is open, so the
  // returned pointer stays valid until that child closes.
  ConfigNode* add(ConfigNode node) {
    if (open_.empty()) {
      root_ = std::move(node);
      return &root_;
    }
    ConfigNode& parent = *open_.back().node;
    if (parent.kind == ConfigNode::Kind::kTable) {
      parent.members.emplace_back(pending_key_, std::move(node));
      return &parent.members.back().second;
    }
    parent.items.push_back(std::move(node));
    return &parent.items.back();
  }

  bool open(ConfigNode::Kind kind) {
    std::string path;
    if (!open_.empty()) {
      const Open& parent = open_.back();
      path = parent.node->kind == ConfigNode::Kind::kTable
                 ? join(parent.path, pending_key_)
                 : parent.path + "[" + std::to_string(parent.node->items.size()) + "]";
    }
    if (open_.size() == kMaxConfigDepth) {
      error_ = Error(ExitCode::kDataError,
                     file_.string() + ": " + path + ": nesting deeper than " +
                         std::to_string(kMaxConfigDepth) +
                         " levels. Flatten the value; no config setting is nested that deep");
      return false;
    }
    ConfigNode node;
    node.kind = kind;
    open_.push_back({add(std::move(node)), std::move(path)});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  std::filesystem::path file_;
  const std::string& text_;
  ConfigNode root_;
  std::vector<Open> open_;
  std::string pending_key_;
  std::optional<Error> error_;
};

}  // namespace

ConfigDocument parse_json_document(const std::filesystem::path& file, const std::string& text) {
  ConfigTreeBuilder builder(file, text);
  // Every handler that stops the parse records why, so a failed parse always has an error.
  if (!Json::sax_parse(text, &builder)) throw builder.error().value();
  return ConfigDocument{file, ConfigFormat::kJson, builder.take_root()};
}

}  // namespace perfgate
