#include "cli/raw_inputs.hpp"

#include <fstream>
#include <iterator>

#include "ingest/seed_raw_record.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ExitCode::kNoInput, path.string() + ": cannot be read. Check its permissions");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::vector<RawInput> read_raw_records(const std::vector<fs::path>& files) {
  std::vector<RawInput> inputs;
  for (const auto& file : files) {
    const std::string bytes = read_bytes(file);
    RawInput input{file.string(), Json(), sha256_hex(bytes), ""};
    try {
      input.raw = Json::parse(bytes);
      if (is_seed_raw_record(input.raw)) input.raw = convert_seed_raw_record(input.raw, input.path);
    } catch (const Json::exception& error) {
      // parse_error, and out_of_range for a number beyond a double (1e400): not valid JSON.
      input.raw = Json();
      input.unreadable = file.string() + ": not valid JSON (" + error.what() +
                         "). Remove the file or run 'perfgate run' again";
    } catch (const Error& error) {
      input.unreadable = error.what();
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

}  // namespace perfgate
