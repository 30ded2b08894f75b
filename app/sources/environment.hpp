// The outside world as the CLI sees it: environment variables, files and
// whether stdout is a terminal. Behind an interface so tests can fake it.
// Only app/ touches the real thing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "willfit/core/expected.hpp"

namespace willfit::app {

class Environment {
 public:
  virtual ~Environment() = default;
  [[nodiscard]] virtual std::optional<std::string> get(const std::string& name) const = 0;
  // Reads at most `limit` bytes from the start of a file.
  [[nodiscard]] virtual Expected<std::string> read_file(const std::string& path,
                                                        std::uint64_t limit) const = 0;
  [[nodiscard]] virtual bool stdout_is_terminal() const = 0;
  // Runs a program (argv[0] looked up on PATH, no shell) and returns what it
  // printed on stdout. Fails when it cannot start, exits non-zero, or runs
  // longer than `timeout_ms` (then it is killed). Used for hardware probes.
  [[nodiscard]] virtual Expected<std::string> run_command(const std::vector<std::string>& argv,
                                                          int timeout_ms) const = 0;

  // Model files (issue 4): sizes, ranges and directories, so a reader can
  // take a header from a file of any size without reading the rest.
  [[nodiscard]] virtual Expected<std::uint64_t> file_size(const std::string& path) const = 0;
  // Reads at most `length` bytes starting at `offset` (fewer at the end of the file).
  [[nodiscard]] virtual Expected<std::string> read_range(const std::string& path,
                                                         std::uint64_t offset,
                                                         std::uint64_t length) const = 0;
  [[nodiscard]] virtual bool is_directory(const std::string& path) const = 0;
  // Names (not paths) of the entries in a directory, sorted.
  [[nodiscard]] virtual Expected<std::vector<std::string>> list_directory(
      const std::string& path) const = 0;
  // Writes a whole file, creating its directories (the remote-model cache,
  // issue 15): written to a temporary name and renamed, so a reader never sees
  // half a file.
  [[nodiscard]] virtual Expected<bool> write_file(const std::string& path,
                                                  const std::string& content) const = 0;
  // Whether MODEL may be read over the network (issue 15). The fake says no
  // unless a test opts in, so no test can reach the internet by accident.
  [[nodiscard]] virtual bool network_allowed() const = 0;
  // A progress line while a network read takes more than a moment (issue
  // 15), rewritten in place; "" clears it. The system environment shows it
  // only when stderr is a terminal, so scripts and pipes never see it and an
  // error stays one line; the fake records it for tests.
  virtual void progress(const std::string& line) const = 0;
};

// Forwards every call to another environment; a subclass overrides only what
// it changes (cli.cpp: --offline and --refresh seen as variables;
// remote_files.hpp: remote files seen as local ones).
class ForwardingEnvironment : public Environment {
 public:
  explicit ForwardingEnvironment(const Environment& base) : base_(base) {}
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override {
    return base_.get(name);
  }
  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override {
    return base_.read_file(path, limit);
  }
  [[nodiscard]] bool stdout_is_terminal() const override { return base_.stdout_is_terminal(); }
  [[nodiscard]] Expected<std::string> run_command(const std::vector<std::string>& argv,
                                                  int timeout_ms) const override {
    return base_.run_command(argv, timeout_ms);
  }
  [[nodiscard]] Expected<std::uint64_t> file_size(const std::string& path) const override {
    return base_.file_size(path);
  }
  [[nodiscard]] Expected<std::string> read_range(const std::string& path, std::uint64_t offset,
                                                 std::uint64_t length) const override {
    return base_.read_range(path, offset, length);
  }
  [[nodiscard]] bool is_directory(const std::string& path) const override {
    return base_.is_directory(path);
  }
  [[nodiscard]] Expected<std::vector<std::string>> list_directory(
      const std::string& path) const override {
    return base_.list_directory(path);
  }
  [[nodiscard]] Expected<bool> write_file(const std::string& path,
                                          const std::string& content) const override {
    return base_.write_file(path, content);
  }
  [[nodiscard]] bool network_allowed() const override { return base_.network_allowed(); }
  void progress(const std::string& line) const override { base_.progress(line); }

 protected:
  const Environment& base_;
};

// The real process environment.
class SystemEnvironment final : public Environment {
 public:
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override;
  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override;
  [[nodiscard]] bool stdout_is_terminal() const override;
  [[nodiscard]] Expected<std::string> run_command(const std::vector<std::string>& argv,
                                                  int timeout_ms) const override;

  // Model files (issue 4).
  [[nodiscard]] Expected<std::uint64_t> file_size(const std::string& path) const override;
  [[nodiscard]] Expected<std::string> read_range(const std::string& path, std::uint64_t offset,
                                                 std::uint64_t length) const override;
  [[nodiscard]] bool is_directory(const std::string& path) const override;
  [[nodiscard]] Expected<std::vector<std::string>> list_directory(
      const std::string& path) const override;
  [[nodiscard]] Expected<bool> write_file(const std::string& path,
                                          const std::string& content) const override;
  [[nodiscard]] bool network_allowed() const override { return true; }
  void progress(const std::string& line) const override;
};

// A fixed environment for tests: variables, in-memory files and canned
// command outputs (keyed by the argv joined with single spaces; a command
// not listed is "not found").
class FakeEnvironment final : public Environment {
 public:
  std::map<std::string, std::string> vars;
  mutable std::map<std::string, std::string> files;  // write_file adds to it
  std::map<std::string, std::string> commands;
  bool terminal = false;
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override;
  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override;
  [[nodiscard]] bool stdout_is_terminal() const override { return terminal; }
  [[nodiscard]] Expected<std::string> run_command(const std::vector<std::string>& argv,
                                                  int timeout_ms) const override;

  // Model files (issue 4). A directory is any path that prefixes a file's
  // path up to a '/'. `sizes` overrides a file's size (its bytes past the
  // content read as zeros), to stand in for huge sparse files.
  mutable std::map<std::string, std::uint64_t> sizes;
  mutable std::uint64_t bytes_read = 0;  // by read_range, so tests can see headers-only reads
  [[nodiscard]] Expected<std::uint64_t> file_size(const std::string& path) const override;
  [[nodiscard]] Expected<std::string> read_range(const std::string& path, std::uint64_t offset,
                                                 std::uint64_t length) const override;
  [[nodiscard]] bool is_directory(const std::string& path) const override;
  [[nodiscard]] Expected<std::vector<std::string>> list_directory(
      const std::string& path) const override;
  [[nodiscard]] Expected<bool> write_file(const std::string& path,
                                          const std::string& content) const override;
  bool network = false;  // tests of remote models set it (and point HF_ENDPOINT at 127.0.0.1)
  [[nodiscard]] bool network_allowed() const override { return network; }
  mutable std::vector<std::string> progress_lines;  // what progress() was given, in order
  void progress(const std::string& line) const override { progress_lines.push_back(line); }
};

}  // namespace willfit::app
