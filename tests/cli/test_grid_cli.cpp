// Grids (comma lists in MODEL, --precision, --device, --context) and the '+'
// that joins the devices of one machine, in-process: every cell is the plain
// answer, exit codes, errors, colour and the JSON array.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

// The contract of a grid: each cell is what the plain question prints, key
// for key and figure for figure (one estimator, one renderer).
TEST(CliGrid, EachJsonCellIsThePlainAnswer) {
  const auto grid = run_cli({"7b,13b", "-p", "q4,q8_0", "-d", "8gb,rtx 4090", "--json"});
  ASSERT_EQ(grid.code, 1) << grid.err;
  const json cells = json::parse(grid.out);
  ASSERT_TRUE(cells.is_array());
  ASSERT_EQ(cells.size(), 8U);  // 2 models x 2 precisions rows, 2 device columns
  std::size_t i = 0;
  for (const char* model : {"7b", "13b"}) {
    for (const char* precision : {"q4", "q8_0"}) {
      for (const char* device : {"8gb", "rtx 4090"}) {
        const auto plain = run_cli({model, "-p", precision, "-d", device, "--json"});
        EXPECT_EQ(cells.at(i), json::parse(plain.out))
            << model << " " << precision << " " << device;
        ++i;
      }
    }
  }
}

// Found by review: Ollama picks its default context by GPU memory (4096 on
// an 8 GB RTX 4060, 32768 on a 24 GB RTX 4090: ollama server/routes.go), so
// the cells of one grid ran at different contexts while the header said
// "context 4096". The header gives what the cells used; each JSON cell keeps
// both query.context_tokens and query.context_resolved_tokens. A "no" cell
// whose JSON has a speed (the offload's, were the RAM there) shows it too.
TEST(CliGrid, OllamaTagsHeaderTellsEachCellsContextAndNoCellsShowTheirSpeed) {
  const auto r = run_cli({"llama3.1:8b,qwen3:30b", "-d", "rtx 4060,rtx 4090"});
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out.find(", context 4096,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("context 4096 to 32768"), std::string::npos) << r.out;
  const auto j = run_cli({"llama3.1:8b,qwen3:30b", "-d", "rtx 4060,rtx 4090", "--json"});
  const json cells = json::parse(j.out);
  ASSERT_EQ(cells.size(), 4U);
  EXPECT_EQ(cells.at(1).at("query").at("context_resolved_tokens"), 32768);
  EXPECT_EQ(cells.at(1).at("query").at("context_tokens"), 4096);
  const json& no = cells.at(2);  // qwen3:30b on the RTX 4060
  ASSERT_EQ(no.at("result").at("verdict"), "no_fit");
  ASSERT_TRUE(no.at("speed").at("decode_tokens_per_s").is_number());
  EXPECT_NE(r.out.find(" tok/s)"), std::string::npos) << r.out;
}

// Found by review: BF16 defaults to llama.cpp on a Mac and to transformers on
// a GeForce (README "And on a Mac?"), but the header named the first cell's
// runtime for the whole grid: "with llama.cpp" over an RTX 3090 cell that was
// the transformers figure. Where the devices' runtimes differ, each column
// names its own, the same as each JSON cell's query.runtime; in either order.
TEST(CliGrid, DevicesWithDifferentDefaultRuntimesNameThemPerColumn) {
  for (const char* devices : {"m2 16gb,rtx 3090", "rtx 3090,m2 16gb"}) {
    const auto r = run_cli({"llama-3.1-8b", "-d", devices});
    ASSERT_NE(r.code, 2) << r.err;
    EXPECT_EQ(r.out.find(", with "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Apple M2 16GB (llama.cpp)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GeForce RTX 3090 (transformers)"), std::string::npos) << r.out;
    const json cells = json::parse(run_cli({"llama-3.1-8b", "-d", devices, "--json"}).out);
    ASSERT_EQ(cells.size(), 2U);
    for (const json& cell : cells) {
      const std::string runtime = cell.at("query").at("runtime");
      EXPECT_NE(r.out.find("(" + runtime + ")"), std::string::npos) << r.out;
    }
  }
  // One runtime for every cell stays in the header.
  const auto same = run_cli({"llama-3.1-8b", "-p", "q4_k_m", "-d", "m2 16gb,rtx 3090"});
  EXPECT_NE(same.out.find(", with llama.cpp:"), std::string::npos) << same.out;
}

TEST(CliGrid, OneValuePerAxisIsThePlainAnswer) {
  const auto r = run_cli({"7b", "-p", "q4", "-d", "8gb"});
  EXPECT_EQ(r.out.rfind("FITS", 0), 0U) << r.out;
  EXPECT_EQ(r.out.find("Grid:"), std::string::npos);
}

TEST(CliGrid, ExitZeroOnlyWhenEveryCellFits) {
  EXPECT_EQ(run_cli({"1b,3b", "-p", "q4", "-d", "24gb,80gb"}).code, 0);
  EXPECT_EQ(run_cli({"1b,70b", "-p", "q4", "-d", "24gb,80gb"}).code, 1);
  EXPECT_EQ(run_cli({"70b,405b", "-p", "fp16", "-d", "8gb,24gb"}).code, 1);
  EXPECT_EQ(run_cli({"7b,70b", "-p", "fp16"}).code, 0);  // no device: needs only, as plain
}

TEST(CliGrid, TheTableHasARowPerModelAndPrecisionAndAColumnPerDevice) {
  const auto r = run_cli({"7b,70b", "-p", "q4,q8_0", "-d", "8gb,2x 24gb"});
  ASSERT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("Grid: 2 models x 2 precisions on 2 devices"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2x 24.0 GiB GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fits: fits whole"), std::string::npos);  // the legend
  int rows = 0;
  for (std::size_t at = r.out.find("\n  7"); at != std::string::npos;
       at = r.out.find("\n  7", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 4) << r.out;  // 7b x 2 and 70b x 2
}

TEST(CliGrid, ContextListsAddAContextColumn) {
  const auto r = run_cli({"8b", "-p", "q4", "-c", "4k,32k", "-d", "24gb,8gb"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_NE(r.out.find("CONTEXT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32768"), std::string::npos) << r.out;
}

TEST(CliGrid, AnUnknownNameInAListIsOneErrorNamingIt) {
  const auto model = run_cli({"7b,llama-9000", "-d", "8gb"});
  EXPECT_TRUE(is_clean_error(model)) << model.err;
  EXPECT_NE(model.err.find("llama-9000"), std::string::npos) << model.err;
  const auto device = run_cli({"7b", "-d", "8gb,rtx 4900"});
  EXPECT_TRUE(is_clean_error(device)) << device.err;
  EXPECT_NE(device.err.find("rtx 4900"), std::string::npos) << device.err;
  const auto precision = run_cli({"7b", "-p", "q4,q9", "-d", "8gb"});
  EXPECT_TRUE(is_clean_error(precision)) << precision.err;
  EXPECT_NE(precision.err.find("q9"), std::string::npos) << precision.err;
}

TEST(CliGrid, EmptyListElementsAreErrors) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"7b,,13b", "-d", "8gb"},
                                             {"7b", "-d", "8gb,"},
                                             {"7b", "-p", ",q4", "-d", "8gb"},
                                             {"7b", "-c", "4k,,8k", "-d", "8gb"}}) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << args[0] << " " << r.err;
    EXPECT_NE(r.err.find("empty element"), std::string::npos) << r.err;
  }
}

TEST(CliGrid, ExplainAndContextMaxAnswerOneQuestion) {
  EXPECT_TRUE(is_clean_error(run_cli({"7b,13b", "-d", "8gb", "--explain"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b,13b", "-d", "8gb", "-c", "max"})));
  EXPECT_TRUE(is_clean_error(run_cli({"7b", "-d", "8gb", "-c", "4k,max"})));
}

TEST(CliGrid, QuietPrintsNothingAndKeepsTheExitCode) {
  const auto r = run_cli({"1b,70b", "-p", "q4", "-d", "8gb", "-q"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
}

// Colour as the memory bar decides it: a terminal without NO_COLOR, or
// --color always; never with NO_COLOR, --color never or a pipe.
TEST(CliGrid, ColourFollowsTheTerminalNoColorAndTheOption) {
  const std::vector<std::string> args{"7b,70b", "-p", "q4", "-d", "8gb"};
  app::FakeEnvironment terminal;
  terminal.terminal = true;
  EXPECT_NE(run_cli(args, terminal).out.find("\x1b[32mfits"), std::string::npos);
  EXPECT_NE(run_cli(args, terminal).out.find("\x1b[31mno"), std::string::npos);
  app::FakeEnvironment no_color = terminal;
  no_color.vars["NO_COLOR"] = "1";
  EXPECT_EQ(run_cli(args, no_color).out.find('\x1b'), std::string::npos);
  EXPECT_EQ(run_cli(args).out.find('\x1b'), std::string::npos);  // a pipe
  auto always = args;
  always.insert(always.end(), {"--color", "always"});
  EXPECT_NE(run_cli(always).out.find("\x1b[32m"), std::string::npos);
  auto never = args;
  never.insert(never.end(), {"--color", "never"});
  EXPECT_EQ(run_cli(never, terminal).out.find('\x1b'), std::string::npos);
  // Colour never shifts the columns: the same text once the codes are gone.
  std::string coloured = run_cli(args, terminal).out;
  for (std::size_t at = coloured.find('\x1b'); at != std::string::npos;
       at = coloured.find('\x1b')) {
    coloured.erase(at, coloured.find('m', at) - at + 1);
  }
  EXPECT_EQ(coloured, run_cli(args).out);
}

// '+' joins the devices of one machine; ',' lists columns to compare.
TEST(CliGrid, PlusJoinsOneMachineAndCommaListsColumns) {
  const auto set = run_cli({"70b", "-p", "q4_k_m", "-d", "rtx 4090+rtx 3090", "--json"});
  ASSERT_NE(set.code, 2) << set.err;
  EXPECT_EQ(json::parse(set.out).at("device").at("count"), 2);
  const auto spaced = run_cli({"70b", "-p", "q4_k_m", "-d", "rtx 4090 + rtx 3090", "--json"});
  EXPECT_EQ(json::parse(spaced.out).at("device"), json::parse(set.out).at("device"));
  const auto columns = run_cli({"70b", "-p", "q4_k_m", "-d", "rtx 4090,rtx 3090", "--json"});
  ASSERT_NE(columns.code, 2) << columns.err;
  const json cells = json::parse(columns.out);
  ASSERT_EQ(cells.size(), 2U);
  EXPECT_EQ(cells.at(0).at("device").at("count"), 1);
  // AMD's "Ryzen AI Max+ 395": the '+' is part of the name.
  const auto strix = run_cli({"8b", "-d", "ryzen ai max+ 395 64gb", "--json"});
  ASSERT_NE(strix.code, 2) << strix.err;
  EXPECT_EQ(json::parse(strix.out).at("device").at("count"), 1);
}

TEST(CliGrid, CommandsWithoutGridsSayToUsePlus) {
  const auto r = run_cli({"max", "-d", "rtx 4090,rtx 3090"});
  EXPECT_TRUE(is_clean_error(r)) << r.err;
  EXPECT_NE(r.err.find("'+'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace willfit::test
