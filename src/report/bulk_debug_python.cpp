#include "report/bulk_debug_python.hpp"

#include <cmath>
#include <filesystem>

#include "model/json.hpp"
#include "report/diff_display.hpp"

namespace perfgate {
namespace {

/// A JSON value as a Python literal: strings and numbers are spelled the same in both;
/// null, true and false are not. Non-finite numbers become the names nan / inf, which the
/// script defines.
std::string python_literal(const Json& value, int indent = 0) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const std::string inner(static_cast<std::size_t>(indent + 4), ' ');
  if (value.is_null()) return "None";
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isnan(number)) return "nan";
    if (std::isinf(number)) return number > 0 ? "inf" : "-inf";
  }
  if (value.is_array()) {
    if (value.empty()) return "[]";
    std::string text = "[\n";
    for (const auto& item : value) text += inner + python_literal(item, indent + 4) + ",\n";
    return text + pad + "]";
  }
  if (value.is_object()) {
    if (value.empty()) return "{}";
    std::string text = "{\n";
    for (const auto& [key, item] : value.items()) {
      text += inner + Json(key).dump(-1, ' ', false, Json::error_handler_t::replace) + ": " +
              python_literal(item, indent + 4) + ",\n";
    }
    return text + pad + "}";
  }
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json bulk_path(const std::optional<ingest::BulkFile>& file) {
  if (!file) return nullptr;
  std::error_code error;
  const auto absolute = std::filesystem::absolute(file->path, error);
  return (error ? std::filesystem::path(file->path) : absolute).lexically_normal().string();
}

Json bulk_count(const std::optional<ingest::BulkFile>& file) {
  if (!file) return nullptr;
  return file->count;
}

Json finite_or_null(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

/// One bulk_rows entry. Keys keep this order (nlohmann's ordered_json would too, but the
/// project's Json sorts keys, so the order is built by hand).
std::vector<std::pair<std::string, Json>> row_fields(const diff::DiffSection& section,
                                                     const diff::DiffRow& row, std::size_t index,
                                                     std::size_t table_index,
                                                     const std::string& reference_path,
                                                     const std::string& compare_path) {
  const auto* ref = row.match.reference;
  const auto* cmp = row.match.compare;
  const auto& state = ref ? *ref : *cmp;
  Json axes = Json::array();
  for (const auto& [name, value] : state.axis_values) {
    axes.push_back({{"name", name}, {"value", value}, {"display", axis_display(state, name)}});
  }
  const auto& c = row.comparison;
  auto device = [](const std::optional<ingest::ResultDevice>& d) -> Json {
    if (!d) return nullptr;
    return d->id;
  };
  return {
      {"row_index", index},
      {"table_row_index", table_index},
      {"benchmark", section.benchmark},
      {"reference_json", reference_path},
      {"compare_json", compare_path},
      {"reference_device_id", device(section.reference_device)},
      {"compare_device_id", device(section.compare_device)},
      {"state_key", state.state_key},
      {"occurrence", row.match.occurrence},
      {"occurrence_count", row.match.occurrence_count},
      {"axis_values", axes},
      {"status", std::string(diff::to_string(c.status))},
      {"reason", c.reason.code},
      {"reason_message", c.reason.message},
      {"reference_time",
       finite_or_null(c.reference ? std::optional(c.reference->center) : std::nullopt)},
      {"compare_time", finite_or_null(c.compare ? std::optional(c.compare->center) : std::nullopt)},
      {"relative_difference", finite_or_null(c.relative_difference)},
      {"reference_sample_filename", ref ? bulk_path(ref->bulk_times) : Json(nullptr)},
      {"reference_sample_count", ref ? bulk_count(ref->bulk_times) : Json(nullptr)},
      {"reference_frequency_filename", ref ? bulk_path(ref->bulk_frequencies) : Json(nullptr)},
      {"reference_frequency_count", ref ? bulk_count(ref->bulk_frequencies) : Json(nullptr)},
      {"compare_sample_filename", cmp ? bulk_path(cmp->bulk_times) : Json(nullptr)},
      {"compare_sample_count", cmp ? bulk_count(cmp->bulk_times) : Json(nullptr)},
      {"compare_frequency_filename", cmp ? bulk_path(cmp->bulk_frequencies) : Json(nullptr)},
      {"compare_frequency_count", cmp ? bulk_count(cmp->bulk_frequencies) : Json(nullptr)},
  };
}

constexpr const char* kHelpers = R"(
def _read_float32(filename, expected_count):
    """The little-endian float32 values of one bulk file, or None when the row has none."""
    if filename is None:
        return None
    values = np.fromfile(filename, dtype="<f4")
    if expected_count is not None and len(values) != expected_count:
        raise ValueError(f"{filename}: holds {len(values)} float32 values, the JSON says {expected_count}")
    return values


def load_bulk_data(row):
    """Sample times (s) and clock frequencies (Hz) of both sides of one bulk_rows entry."""
    return {
        "reference_samples": _read_float32(row["reference_sample_filename"], row["reference_sample_count"]),
        "reference_frequencies": _read_float32(row["reference_frequency_filename"], row["reference_frequency_count"]),
        "compare_samples": _read_float32(row["compare_sample_filename"], row["compare_sample_count"]),
        "compare_frequencies": _read_float32(row["compare_frequency_filename"], row["compare_frequency_count"]),
    }


# For example:
#   row = bulk_rows[0]
#   arrays = load_bulk_data(row)
#   ambiguous = [row for row in bulk_rows if row["status"] == "AMBG"]
)";

}  // namespace

std::string render_bulk_debug_python(const diff::DiffOutcome& outcome,
                                     const std::string& reference_path,
                                     const std::string& compare_path, double threshold) {
  std::string rows = "bulk_rows = [\n";
  std::size_t index = 0;
  for (const auto& section : outcome.sections) {
    std::size_t table_index = 0;
    for (const auto& row : section.rows) {
      if (!row_displayed(row, threshold)) continue;
      rows += "    {\n";
      for (const auto& [key, value] :
           row_fields(section, row, index, table_index, reference_path, compare_path)) {
        rows += "        \"" + key + "\": " + python_literal(value, 8) + ",\n";
      }
      rows += "    },\n";
      ++index;
      ++table_index;
    }
  }
  rows += "]\n";
  return "# NVB-BULK-BEGIN\n"
         "# Written by perfgate diff --bulk-debug-python: one entry per displayed row.\n"
         "import numpy as np\n\n"
         "nan = float(\"nan\")\n"
         "inf = float(\"inf\")\n\n" +
         rows + kHelpers + "# NVB-BULK-END\n";
}

}  // namespace perfgate
