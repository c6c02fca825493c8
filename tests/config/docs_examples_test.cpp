// The examples in docs/configs.md are real configs: they must load, and the JSON and TOML
// versions of the full example must describe the same benchmark.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config/suite_loader.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// The fenced code blocks of `language` in docs/configs.md, in order.
std::vector<std::string> doc_blocks(const std::string& language) {
  std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/docs/configs.md");
  std::vector<std::string> blocks;
  std::string line;
  std::ostringstream block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && line == "```" + language) {
      inside = true;
      block.str("");
    } else if (inside && line == "```") {
      inside = false;
      blocks.push_back(block.str());
    } else if (inside) {
      block << line << "\n";
    }
  }
  return blocks;
}

TEST(DocsExamples, FullJsonAndTomlExamplesLoadToTheSameConfig) {
  const std::vector<std::string> json = doc_blocks("json");
  const std::vector<std::string> toml = doc_blocks("toml");
  ASSERT_EQ(json.size(), 1u);
  ASSERT_EQ(toml.size(), 4u);  // parameters snippet, perfgate.toml, full example, legacy
  TempDir dir;
  dir.write("data/prompts.txt", "a cat\n");
  BenchmarkConfig from_json = load_benchmark_config(dir.write("full.json", json[0]));
  const BenchmarkConfig from_toml = load_benchmark_config(dir.write("full.toml", toml[2]));
  from_json.source = from_toml.source;
  EXPECT_EQ(from_json, from_toml);
  EXPECT_EQ(expand_states(from_toml).size(), 4u);
  EXPECT_EQ(expand_states(from_toml)[1].name, "t2v-small[frames=16,threads=8]");
}

TEST(DocsExamples, ProjectFileAndLegacyExamplesLoad) {
  const std::vector<std::string> toml = doc_blocks("toml");
  ASSERT_EQ(toml.size(), 4u);
  TempDir dir;
  const ProjectConfig project = load_project_config(dir.write("perfgate.toml", toml[1]));
  EXPECT_EQ(project.num_measurement_runs, 5);
  const BenchmarkConfig legacy = load_benchmark_config(dir.write("legacy.toml", toml[3]), project);
  EXPECT_EQ(legacy.benchmark_id, "sort-1m");
  EXPECT_EQ(legacy.run.num_measurement_runs, 5);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
