// The bad-input corpus (tests/bad_input/cases.txt, format documented there):
// every case must be a clean error (exit 2, nothing on stdout, exactly one
// stderr line "willfit: error: ..." naming the problem). Each case runs
// in-process with a FakeEnvironment, and, unless it needs a fake file, a
// variable or a NUL byte, also through the real binary with a clean
// environment, so that no abort, sanitizer report or stack trace escapes.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/harness.hpp"

namespace willfit::test {
namespace {

namespace fs = std::filesystem;

// Features whose cases are run; a case marked needs:FEATURE is skipped until
// the feature is merged and listed here ("devices_db", "models_db", "gguf",
// "safetensors", "hf_config").
const std::set<std::string> kEnabledFeatures = {"devices_db", "models_db", "gguf", "safetensors",
                                                "hf_config"};

struct BadInput {
  std::string name;
  std::string fragment;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> needs;
  bool in_process_only = false;
};

std::string trim_spaces(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) {
    return "";
  }
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Splits on unescaped `sep`, keeping escapes for unescape().
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out.back() += s.substr(i, 2);
      ++i;
    } else if (s[i] == sep) {
      out.emplace_back();
    } else {
      out.back() += s[i];
    }
  }
  return out;
}

std::string unescape(const std::string& s) {
  if (s == "''") {
    return "";
  }
  if (s.rfind("@long:", 0) == 0) {
    const auto colon = s.find(':', 6);
    const auto count = std::stoul(s.substr(6, colon - 6));
    const std::string unit = unescape(s.substr(colon + 1));
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
      out += unit;
    }
    return out;
  }
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    switch (s[++i]) {
      case 's':
        out += ' ';
        break;
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case 'e':
        out += '\x1b';
        break;
      default:
        out += s[i];  // \| and \\ .
    }
  }
  return out;
}

std::vector<std::string> words(const std::string& field) {
  std::vector<std::string> out;
  for (const auto& w : split(trim_spaces(field), ' ')) {
    if (!w.empty()) {
      out.push_back(w);
    }
  }
  return out;
}

std::vector<BadInput> load_cases() {
  std::ifstream in(fs::path(WILLFIT_BAD_INPUT_DIR) / "cases.txt", std::ios::binary);
  std::vector<BadInput> cases;
  std::string line;
  while (std::getline(in, line)) {
    const std::string t = trim_spaces(line);
    if (t.empty() || t.front() == '#') {
      continue;
    }
    const auto fields = split(line, '|');
    if (fields.size() < 3 || fields.size() > 4) {
      throw std::runtime_error("bad_input/cases.txt: malformed line: " + line);
    }
    BadInput c;
    c.name = trim_spaces(fields[0]);
    c.fragment = unescape(trim_spaces(fields[1]));
    for (const auto& w : words(fields[2])) {
      c.args.push_back(unescape(w));
      c.in_process_only = c.in_process_only || c.args.back().find('\0') != std::string::npos;
    }
    for (const auto& w : fields.size() == 4 ? words(fields[3]) : std::vector<std::string>{}) {
      const auto eq = w.find('=');
      if (w.rfind("env:", 0) == 0 && eq != std::string::npos) {
        c.env.emplace_back(w.substr(4, eq - 4), unescape(w.substr(eq + 1)));
        c.in_process_only = true;
      } else if (w.rfind("file:", 0) == 0 && eq != std::string::npos) {
        c.files.emplace_back(w.substr(5, eq - 5), unescape(w.substr(eq + 1)));
        c.in_process_only = true;
      } else if (w.rfind("needs:", 0) == 0) {
        c.needs.push_back(w.substr(6));
      } else if (w == "inprocess") {
        c.in_process_only = true;
      } else {
        throw std::runtime_error("bad_input/cases.txt: unknown setup '" + w + "' in " + c.name);
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// Printable for a failure message: control bytes as \xNN, long text cut.
std::string show(const std::string& s) {
  std::string out;
  for (const char c : s.substr(0, 300)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      static const char* const kHex = "0123456789abcdef";
      out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

void expect_clean_error(const CliResult& r, const BadInput& c, const char* how) {
  SCOPED_TRACE(std::string(how) + " stderr: " + show(r.err) + " stdout: " + show(r.out));
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find(c.fragment), std::string::npos) << "expected: " << c.fragment;
  // No control characters reach the terminal, whatever the user typed.
  EXPECT_TRUE(std::none_of(r.err.begin(), r.err.end() - (r.err.empty() ? 0 : 1), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u < 0x20 || u == 0x7f;
  }));
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the real binary with `args` and only NO_COLOR=1 and HF_HUB_OFFLINE=1 in
// its environment.
CliResult run_binary(const std::vector<std::string>& args, const std::string& tag) {
  const fs::path dir =
      fs::temp_directory_path() / ("willfit_bad_input_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string out_path = (dir / (tag + ".out")).string();
  const std::string err_path = (dir / (tag + ".err")).string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::string binary = WILLFIT_BINARY;
  std::vector<std::string> storage{binary};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) {
    argv.push_back(s.data());
  }
  argv.push_back(nullptr);
  std::string no_color = "NO_COLOR=1";
  std::string offline = "HF_HUB_OFFLINE=1";  // no test reaches the network
  char* envp[] = {no_color.data(), offline.data(), nullptr};
  pid_t pid = 0;
  CliResult r;
  if (posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), envp) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

// gtest prints the case by name, not as bytes.
void PrintTo(const BadInput& c, std::ostream* os) {
  *os << c.name;
}

class BadInputCase : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputCase, IsOneCleanErrorLine) {
  const BadInput& c = GetParam();
  for (const auto& need : c.needs) {
    if (kEnabledFeatures.count(need) == 0) {
      GTEST_SKIP() << "needs " << need << " (enable in kEnabledFeatures after the merge)";
    }
  }
  app::FakeEnvironment env;
  for (const auto& [k, v] : c.env) {
    env.vars[k] = v;
  }
  for (const auto& [k, v] : c.files) {
    env.files[k] = v;
  }
  expect_clean_error(run_cli(c.args, env), c, "in-process");
  if (!c.in_process_only) {
    expect_clean_error(run_binary(c.args, c.name), c, "binary");
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInputCase, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<BadInput>& param_info) {
                           return param_info.param.name;
                         });

TEST(BadInputCorpus, HasAtLeastSixtyActiveCasesWithUniqueNames) {
  const auto cases = load_cases();
  std::set<std::string> names;
  int active = 0;
  for (const auto& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate case " << c.name;
    EXPECT_FALSE(c.name.empty());
    EXPECT_TRUE(std::all_of(c.name.begin(), c.name.end(), [](char ch) {
      return std::islower(static_cast<unsigned char>(ch)) != 0 ||
             std::isdigit(static_cast<unsigned char>(ch)) != 0 || ch == '_';
    })) << c.name;
    EXPECT_FALSE(c.fragment.empty()) << c.name;
    active += c.needs.empty() ? 1 : 0;
  }
  EXPECT_GE(active, 60);
}

}  // namespace
}  // namespace willfit::test
