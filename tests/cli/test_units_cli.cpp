// --units si|iec on every command that prints memory: under `si` no binary
// unit appears anywhere, under `iec` no decimal memory figure does (rates in
// GB/s stay decimal; a seller's "24 GB as sold", device names such as "RTX
// 3050 6GB" and the database's notes and sources are quoted as written).
// JSON is the same in every system: bytes are integers.
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/harness.hpp"
#include "unit/model_file_writers.hpp"

namespace willfit {
namespace {

using test::CliResult;
using test::is_clean_error;
using test::run_cli;

using Args = std::vector<std::string>;

// Commands that between them print every kind of memory figure: the verdict,
// breakdown, bar, explain, suggestions, offload plan, per-device table, vLLM
// and PyTorch terms, training, max, which, the device sheet and table, and
// --device auto's notes.
const std::vector<Args>& cases() {
  static const std::vector<Args> c{
      {"llama-2-13b", "-p", "q4", "-d", "8gb", "--explain"},
      {"13b", "-p", "q4", "-d", "8gb", "--ram", "32gb", "--explain"},
      {"llama-3.1-70b", "-p", "q4", "-d", "2x rtx 3090", "--explain"},
      {"llama-3.1-8b", "-d", "rtx 4090", "--runtime", "vllm", "--explain"},
      {"llama-3.1-8b", "-p", "q4", "-d", "m2 max 64gb", "--runtime", "ollama", "--explain"},
      {"7b", "-d", "24gb", "--runtime", "transformers", "--explain"},
      {"7b", "-p", "q4", "-d", "8gb", "--gpu-limit", "6gb"},
      {"70b", "-p", "q4", "-d", "auto"},
      {"train", "7b", "--method", "qlora", "-d", "24gb", "--explain"},
      {"train", "13b", "-d", "24gb", "--ram", "64gb", "--offload-optimizer", "--zero", "3",
       "--explain"},
      {"max", "llama-3.1-8b", "-d", "rtx 4090", "-p", "best"},
      {"max", "-d", "rtx 4090"},
      {"which", "llama-3.1-8b", "-p", "q4", "--limit", "5"},
      {"device", "rtx 4090"},
      {"device", "m2 max 64gb"},
      {"devices", "4090"},
  };
  return c;
}

app::FakeEnvironment with_gpu() {
  app::FakeEnvironment env;
  env.commands
      ["nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,"
       "nounits"] = "NVIDIA GeForce RTX 3090, 24576, 1100\n";
  env.files["/proc/meminfo"] = "MemTotal:       65536000 kB\nMemFree:        1000 kB\n";
  return env;
}

std::string joined(const Args& args) {
  std::string s;
  for (const auto& a : args) {
    s += (s.empty() ? "" : " ") + a;
  }
  return s;
}

CliResult run_with(Args args, const std::string& units) {
  args.push_back("--units");
  args.push_back(units);
  return run_cli(args, with_gpu());
}

TEST(UnitsCli, SiPrintsNoBinaryUnit) {
  const std::regex binary("[KMGT]iB");
  for (const auto& args : cases()) {
    const auto r = run_with(args, "si");
    ASSERT_NE(r.code, 2) << joined(args) << ": " << r.err;
    std::smatch m;
    EXPECT_FALSE(std::regex_search(r.out, m, binary))
        << joined(args) << " --units si prints '" << m.str() << "' in:\n"
        << r.out;
    EXPECT_NE(r.out.find(" GB"), std::string::npos) << joined(args) << "\n" << r.out;
  }
}

TEST(UnitsCli, IecPrintsNoDecimalMemoryFigure) {
  // A figure as willfit prints one (number, space, unit) in a decimal unit
  // that is not a rate (GB/s).
  const std::regex decimal("[0-9] (kB|MB|GB|TB)(?!/s)");
  for (const auto& args : cases()) {
    const auto r = run_with(args, "iec");
    ASSERT_NE(r.code, 2) << joined(args) << ": " << r.err;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("as sold") != std::string::npos || line.rfind("Source: ", 0) == 0 ||
          line.rfind("  - from the data: ", 0) == 0) {
        continue;  // quoted: the seller's label, the database's notes and sources
      }
      std::smatch m;
      EXPECT_FALSE(std::regex_search(line, m, decimal))
          << joined(args) << " --units iec prints '" << m.str() << "' in: " << line;
    }
    EXPECT_NE(r.out.find("GiB"), std::string::npos) << joined(args) << "\n" << r.out;
  }
}

TEST(UnitsCli, TheDefaultMixesDeviceGiBWithCourseGB) {
  const auto r = run_cli({"llama-2-13b", "-p", "int4", "-d", "8gb", "--explain"});
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_NE(r.out.find("13 B parameters x 0.5 bytes (4-bit INT4) = 6.50 GB"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("usable: 7.84 GiB of 8.00 GiB installed"), std::string::npos) << r.out;
  const auto iec =
      run_cli({"llama-2-13b", "-p", "int4", "-d", "8gb", "--explain", "--units", "iec"});
  EXPECT_NE(iec.out.find("13 B parameters x 0.5 bytes (4-bit INT4) = 6.05 GiB"), std::string::npos)
      << iec.out;
  const auto si = run_cli({"llama-2-13b", "-p", "int4", "-d", "8gb", "--explain", "--units", "si"});
  EXPECT_NE(si.out.find("usable: 8.42 GB of 8.59 GB installed"), std::string::npos) << si.out;
}

TEST(UnitsCli, JsonBytesAreTheSameInEverySystem) {
  const Args args{"llama-3.1-70b", "-p", "q4", "-d", "2x rtx 3090", "--json"};
  const auto mixed = run_cli(args);
  ASSERT_NE(mixed.code, 2) << mixed.err;
  for (const char* units : {"si", "iec"}) {
    auto with = args;
    with.insert(with.end(), {"--units", units});
    const auto r = run_cli(with);
    // Figures as integers do not change; the words in the formulas may.
    const std::regex bytes("\"[a-z_]*_bytes\": ?-?[0-9]+");
    auto figures = [&](const std::string& s) {
      std::string all;
      for (std::sregex_iterator it(s.begin(), s.end(), bytes), end; it != end; ++it) {
        all += it->str() + "\n";
      }
      return all;
    };
    EXPECT_EQ(figures(r.out), figures(mixed.out)) << units;
    EXPECT_FALSE(figures(r.out).empty());
  }
}

// A model file's note ("weights: ... exactly") is written when the file is
// read; it follows --units too. The tiny GGUF holds 1107152 weight bytes.
TEST(UnitsCli, ModelFileNotesFollowTheUnits) {
  app::FakeEnvironment env;
  env.files["models/tiny.gguf"] = test::tiny_llama(3).file();
  const Args args{"models/tiny.gguf", "-d", "8gb"};
  EXPECT_NE(run_cli(args, env).out.find("weights: 1.11 MB exactly"), std::string::npos);
  auto iec = args;
  iec.insert(iec.end(), {"--units", "iec"});
  const auto r = run_cli(iec, env);
  EXPECT_NE(r.out.find("weights: 1.06 MiB exactly"), std::string::npos) << r.out;
}

TEST(UnitsCli, UnknownSystemIsOneLineError) {
  for (const Args& args :
       {Args{"7b", "-d", "8gb", "--units", "foo"}, Args{"train", "7b", "--units", "GB"},
        Args{"which", "7b", "--units", "bin"}, Args{"device", "rtx 4090", "--units", "x"},
        Args{"devices", "--units", "x"}, Args{"models", "--units", "x"}}) {
    const auto r = run_cli(args);
    EXPECT_TRUE(is_clean_error(r)) << joined(args) << ": " << r.err;
    EXPECT_NE(r.err.find("use si"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace willfit
