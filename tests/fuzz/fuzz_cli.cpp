// Fuzz target: the whole CLI in-process. The input is split on NUL and
// newline into an argument vector and run with an empty fake environment.
// The contract checked (docs/usage.md, "Exit codes"): the exit code is 0, 1 or 2;
// on 2 stdout is empty and stderr is exactly one line "willfit: error: ..."
// without control characters (the user's input is quoted in it);
// on 0 or 1 stderr is empty, and a JSON answer has totals equal to the sum
// of their parts.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "sources/environment.hpp"
#include "fuzz_check.hpp"

using willfit::fuzz::check;

namespace {

void check_json_totals(const std::string& out, std::string_view input) {
  const auto j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  check(!j.is_discarded() && j.is_object(), "--json output is not one JSON object", input);
  const auto& m = j.at("memory");
  const auto sum =
      m.at("weights_bytes").get<std::int64_t>() + m.at("kv_cache_bytes").get<std::int64_t>() +
      m.at("compute_bytes").get<std::int64_t>() + m.at("overhead_bytes").get<std::int64_t>() +
      m.at("margin_bytes").get<std::int64_t>();
  check(m.at("total_bytes").get<std::int64_t>() == sum, "memory.total_bytes is not the sum", input);
  check(j.at("result").at("required_bytes").get<std::int64_t>() == sum,
        "result.required_bytes is not memory.total_bytes", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;
  std::string current;
  for (const char c : input) {
    if (c == '\0' || c == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  args.push_back(current);

  std::ostringstream out;
  std::ostringstream err;
  const willfit::app::FakeEnvironment env;
  const int code = willfit::app::run(args, out, err, env);
  const std::string o = out.str();
  const std::string e = err.str();

  check(code == 0 || code == 1 || code == 2, "exit code is not 0, 1 or 2", input);
  if (code == 2) {
    check(o.empty(), "an error wrote to stdout", input);
    check(e.rfind("willfit: error: ", 0) == 0, "stderr does not start 'willfit: error: '", input);
    check(e.find('\n') == e.size() - 1, "stderr is not exactly one line", input);
    for (std::size_t i = 0; i + 1 < e.size(); ++i) {
      const auto u = static_cast<unsigned char>(e[i]);
      check(u >= 0x20 && u != 0x7f, "a control character reached stderr", input);
    }
  } else {
    check(e.empty(), "an answer wrote to stderr", input);
    if (!o.empty() && o.front() == '{') {
      check_json_totals(o, input);
    }
  }
  return 0;
}
