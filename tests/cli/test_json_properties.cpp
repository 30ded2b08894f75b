// The JSON contract over many generated command lines (every pair of option
// values, below): the memory total is the sum of its five parts, the requirement is that total,
// the headroom is available minus required, and the verdict and exit code
// follow the headroom. Parses the CLI's --json output, as a script would.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

using nlohmann::json;

// The text's "Assumptions:" lines, in order.
std::vector<std::string> text_assumptions(const std::string& out) {
  std::vector<std::string> lines;
  const auto start = out.find("\nAssumptions:\n");
  if (start == std::string::npos) {
    return lines;
  }
  std::size_t at = start + 14;
  while (out.compare(at, 4, "  - ") == 0) {
    const auto end = out.find('\n', at);
    lines.push_back(out.substr(at + 4, end - at - 4));
    at = end + 1;
  }
  return lines;
}

// The JSON's assumptions are the text's, line for line: the usable-memory
// reason (the driver's 2 % on an RTX 4090, macOS's working set on a Mac)
// included, for the plain answer and for train.
TEST(JsonProperties, AssumptionsAreTheTextsLines) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"8b", "-d", "rtx 4090"},
        std::vector<std::string>{"llama-3.1-8b", "-p", "q4_k_m", "-d", "m2 16gb"},
        std::vector<std::string>{"train", "7b", "-d", "rtx 4090"}}) {
    const auto text = text_assumptions(run_cli(args).out);
    std::vector<std::string> with_json = args;
    with_json.push_back("--json");
    const json j = json::parse(run_cli(with_json).out);
    std::vector<std::string> from_json;
    for (const auto& a : j.at("assumptions")) {
      from_json.push_back(a.get<std::string>());
    }
    EXPECT_EQ(from_json, text) << args[0];
    bool usable = false;
    for (const auto& a : from_json) {
      usable = usable || a.rfind("usable memory: ", 0) == 0;
    }
    EXPECT_TRUE(usable) << args[0] << ": " << j.at("assumptions");
  }
}

TEST(JsonProperties, TotalsEqualTheSumOfTheirParts) {
  const std::vector<std::string> models = {"350m",    "1.5b",      "3b",   "7b",   "13b",
                                           "34b",     "70b",       "405b", "8x7b", "8x22b",
                                           "30b-a3b", "235b-a22b", "1t"};
  const std::vector<std::string> precisions = {"fp32", "fp16", "bf16", "fp8",    "int8", "int4",
                                               "q8_0", "q6_k", "q4",   "q4_k_s", "q2_k", "iq1_s",
                                               "nf4",  "gptq", "awq",  "3.5bpw", "mxfp4"};
  const std::vector<std::string> devices = {"",     "512mb", "4gb",   "8gb",   "12gb", "24GiB",
                                            "48gb", "80gb",  "192gb", "512gb", "2tb"};
  const std::vector<std::string> contexts = {"1", "512", "2048", "4096", "8k", "32k", "128k", "1m"};
  const std::vector<std::string> batches = {"1", "2", "4", "16", "64"};
  const std::vector<std::string> kvs = {"f16", "f32", "bf16", "q8_0", "q5_1", "q4_0", "iq4_nl"};
  const std::vector<std::string> flash = {"auto", "on", "off"};
  const std::vector<std::string> rams = {"", "16gb", "64gb", "1tb"};

  // Each model with each precision once (13 x 17 lines); the other options
  // cycle with the line, their periods (11, 8, 5, 7, 3) prime to 17 and to
  // each other but 8 and the RAM's 4, which steps once more every 8 lines:
  // every pair of values of any two options is on some line (400 lines drawn
  // at random missed about 4 % of those pairs).
  const std::size_t lines = models.size() * precisions.size();
  for (std::size_t i = 0; i < lines; ++i) {
    const auto nth = [](const std::vector<std::string>& v, std::size_t n) {
      return v[n % v.size()];
    };
    // A llama.cpp cache type with a precision transformers loads is refused
    // (willfit does not model transformers' QuantizedCache): f16 there.
    const std::string precision = nth(precisions, i);
    const bool torch = precision.find_first_of("0123456789") == 0 || precision[0] == 'f' ||
                       precision == "bf16" || precision == "int8" || precision == "int4" ||
                       precision == "nf4" || precision == "gptq" || precision == "awq";
    const std::string kv =
        torch && nth(kvs, i)[0] != 'f' && nth(kvs, i)[0] != 'b' ? "f16" : nth(kvs, i);
    std::vector<std::string> args = {models[i / precisions.size()],
                                     "--json",
                                     "-p",
                                     nth(precisions, i),
                                     "-c",
                                     nth(contexts, i),
                                     "-b",
                                     nth(batches, i),
                                     "--kv-type",
                                     kv,
                                     "--flash-attn",
                                     nth(flash, i)};
    const std::string device = nth(devices, i);
    if (!device.empty()) {
      args.insert(args.end(), {"-d", device});
    }
    const std::string ram = nth(rams, i + i / 8);
    if (!ram.empty() && !device.empty()) {  // --ram without a device is refused
      args.insert(args.end(), {"--ram", ram});
    }
    const std::string line = fmt::format("{}", fmt::join(args, " "));
    const CliResult r = run_cli(args);
    ASSERT_TRUE(r.code == 0 || r.code == 1) << line << ": " << r.err;
    const json j = json::parse(r.out);
    const json& m = j["memory"];
    const auto part = [&m](const char* k) { return m[k].get<std::int64_t>(); };
    const std::int64_t sum = part("weights_bytes") + part("kv_cache_bytes") +
                             part("compute_bytes") + part("overhead_bytes") + part("margin_bytes");
    ASSERT_EQ(part("total_bytes"), sum) << line;
    const json& res = j["result"];
    ASSERT_EQ(res["required_bytes"].get<std::int64_t>(), sum) << line;
    if (device.empty()) {
      ASSERT_TRUE(res["verdict"].is_null()) << line;
      ASSERT_EQ(r.code, 0) << line;
      continue;
    }
    const auto available = res["available_bytes"].get<std::int64_t>();
    const auto headroom = res["headroom_bytes"].get<std::int64_t>();
    ASSERT_EQ(headroom, available - sum) << line;
    ASSERT_EQ(available, j["device"]["usable_bytes"].get<std::int64_t>()) << line;
    ASSERT_LE(available, j["device"]["memory_bytes"].get<std::int64_t>()) << line;
    ASSERT_EQ(res["fits"].get<bool>(), headroom >= 0) << line;
    ASSERT_EQ(res["verdict"] == "fits", headroom >= 0) << line;
    ASSERT_EQ(r.code, headroom >= 0 ? 0 : 1) << line;
  }
}

}  // namespace
}  // namespace willfit::test
