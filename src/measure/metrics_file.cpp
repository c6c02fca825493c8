#include "measure/metrics_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "model/error.hpp"
#include "model/json.hpp"

namespace perfgate {

namespace {

constexpr const char* kLineExample =
    R"(Write one JSON object per line, e.g. {"name": "decode", "value": 1.5, "unit": "s"})";

[[noreturn]] void reject(const std::filesystem::path& path, std::size_t line_number,
                         const std::string& reason, const std::string& fix) {
  throw Error(ExitCode::kDataError,
              fmt::format("{}:{}: {}. {}", path.string(), line_number, reason, fix));
}

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\n") == std::string::npos;
}

ReportedMetric parse_line(const std::filesystem::path& path, std::size_t line_number,
                          const std::string& line) {
  Json object;
  try {
    object = Json::parse(line);
  } catch (const Json::parse_error& error) {
    reject(path, line_number, fmt::format("not valid JSON at column {}", error.byte), kLineExample);
  } catch (const Json::exception&) {
    reject(path, line_number, "a number is out of range", "Write finite numbers only");
  }
  if (!object.is_object()) {
    reject(path, line_number, fmt::format("expected a JSON object, found {}", object.type_name()),
           kLineExample);
  }
  for (const auto& [key, value] : object.items()) {
    if (key != "name" && key != "value" && key != "unit" && key != "direction") {
      reject(path, line_number, fmt::format("unknown key \"{}\"", key),
             "Use only the keys name, value, unit and direction");
    }
  }

  ReportedMetric metric;
  const auto name = object.find("name");
  if (name == object.end() || !name->is_string() || name->get<std::string>().empty()) {
    reject(path, line_number, "\"name\" must be a non-empty string",
           "Name the metric, e.g. \"name\": \"decode\"");
  }
  metric.name = name->get<std::string>();

  const auto value = object.find("value");
  if (value == object.end() || !value->is_number()) {
    reject(path, line_number, fmt::format("\"value\" of \"{}\" must be a number", metric.name),
           "Report the measured number, e.g. \"value\": 1.5");
  }
  metric.value = value->get<double>();

  if (const auto unit = object.find("unit"); unit != object.end()) {
    if (!unit->is_string()) {
      reject(path, line_number, fmt::format("\"unit\" of \"{}\" must be a string", metric.name),
             "Write the unit as text, e.g. \"unit\": \"s\", or leave it out");
    }
    metric.unit = unit->get<std::string>();
  }

  if (const auto direction = object.find("direction"); direction != object.end()) {
    if (direction->is_string()) metric.direction = parse_direction(direction->get<std::string>());
    if (!metric.direction) {
      reject(path, line_number,
             fmt::format("\"direction\" of \"{}\" must be \"lower\" or \"higher\", found {}",
                         metric.name, direction->dump()),
             "Say which way is better, or leave it out");
    }
  }
  return metric;
}

}  // namespace

std::vector<ReportedMetric> read_metrics_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error) && !error) return {};
  std::ifstream in(path);
  if (!in) {
    throw Error(ExitCode::kIoError,
                fmt::format("cannot read the metrics file {}: {}. Check its permissions.",
                            path.string(), std::strerror(errno)));
  }
  std::vector<ReportedMetric> metrics;
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    if (!is_blank(line)) metrics.push_back(parse_line(path, line_number, line));
  }
  return metrics;
}

}  // namespace perfgate
