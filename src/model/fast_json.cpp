#include "model/fast_json.hpp"

#include <simdjson.h>

namespace perfgate {
namespace {

Json convert(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::OBJECT: {
      Json object = Json::object();
      for (const auto field : simdjson::dom::object(element)) {
        object[std::string(field.key)] = convert(field.value);
      }
      return object;
    }
    case element_type::ARRAY: {
      Json array = Json::array();
      for (const simdjson::dom::element item : simdjson::dom::array(element)) {
        array.push_back(convert(item));
      }
      return array;
    }
    case element_type::STRING:
      return std::string(std::string_view(element));
    case element_type::INT64:
      return std::int64_t(element);
    case element_type::UINT64:
      return std::uint64_t(element);
    case element_type::DOUBLE:
      return double(element);
    case element_type::BOOL:
      return bool(element);
    case element_type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

Json json_of(const simdjson::dom::element& element) {
  return convert(element);
}

std::optional<Json> parse_json_fast(std::string_view text) {
  // One parser per thread: it keeps its buffers between documents.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  return convert(root);
}

}  // namespace perfgate
