#include "support/result_file_input.hpp"

#include <string>

#include "support/fuzz_input.hpp"

namespace perfgate::fuzz {

void read_result_input(const std::uint8_t* data, std::size_t size,
                       std::optional<ingest::ResultFormat> format) {
  const auto path = write_input("result.json", data, size);
  expect_user_errors_only([&] {
    const ingest::ResultFile file = ingest::read_result_file(path, format);
    std::string warning;
    for (const ingest::ResultState& state : file.states) {
      if (state.bulk_times) ingest::load_bulk_file(*state.bulk_times, warning);
      if (state.bulk_frequencies) ingest::load_bulk_file(*state.bulk_frequencies, warning);
    }
  });
}

}  // namespace perfgate::fuzz
