// docs/architectures.md's table of every llama.cpp architecture against
// llama.cpp's own list (tests/data/llama_cpp_architectures.txt, LLM_ARCH_NAMES
// at 80fb11ac) and against what the readers do with each name.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "willfit/models/model.hpp"

namespace willfit {
namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

// docs/architectures.md's table of llama.cpp's names lists exactly the names
// of llama.cpp's LLM_ARCH_NAMES (tests/data/llama_cpp_architectures.txt),
// once each, and says of each what the code does.
TEST(ArchitectureTable, ListsEveryLlamaCppName) {
  std::vector<std::string> names;
  for (const auto& line : read_lines(WILLFIT_TEST_DATA_DIR "/llama_cpp_architectures.txt")) {
    if (!line.empty() && line[0] != '#') {
      names.push_back(line);
    }
  }
  EXPECT_GT(names.size(), 140U);
  std::map<std::string, std::pair<std::string, std::string>> table;  // name: status, KV
  bool in_section = false;
  for (const auto& line : read_lines(WILLFIT_DATA_DIR "/../docs/architectures.md")) {
    if (line.starts_with("## ")) {
      in_section = line == "## Every llama.cpp architecture";
      continue;
    }
    if (!in_section || !line.starts_with("| `")) {
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    ASSERT_GE(cells.size(), 3U) << line;
    const std::string name = cells[0].substr(1, cells[0].size() - 2);  // inside the backticks
    EXPECT_TRUE(table.emplace(name, std::make_pair(cells[1], cells[2])).second)
        << "twice: " << name;
  }
  EXPECT_EQ(table.size(), names.size());
  for (const auto& name : names) {
    const auto it = table.find(name);
    ASSERT_NE(it, table.end()) << name << " is not in the table";
    const auto& [status, kv] = it->second;
    const std::string expected = name == "clip"                             ? "projector"
                                 : !refused_gguf_architecture(name).empty() ? "refused"
                                 : is_known_gguf_architecture(name)         ? "modelled"
                                                                    : "shared keys, warning";
    EXPECT_EQ(status, expected) << name;
    EXPECT_EQ(kv, is_cache_free_gguf_architecture(name) ? "none" : "") << name;
  }
}

}  // namespace
}  // namespace willfit
