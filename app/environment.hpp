// The outside world as the CLI sees it: environment variables, files and
// whether stdout is a terminal. Behind an interface so tests can fake it.
// Only app/ touches the real thing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "willfit/expected.hpp"

namespace willfit::app {

class Environment {
 public:
  virtual ~Environment() = default;
  [[nodiscard]] virtual std::optional<std::string> get(const std::string& name) const = 0;
  // Reads at most `limit` bytes from the start of a file.
  [[nodiscard]] virtual Expected<std::string> read_file(const std::string& path,
                                                        std::uint64_t limit) const = 0;
  [[nodiscard]] virtual bool stdout_is_terminal() const = 0;
};

// The real process environment.
class SystemEnvironment final : public Environment {
 public:
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override;
  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override;
  [[nodiscard]] bool stdout_is_terminal() const override;
};

// A fixed environment for tests: variables and in-memory files.
class FakeEnvironment final : public Environment {
 public:
  std::map<std::string, std::string> vars;
  std::map<std::string, std::string> files;
  bool terminal = false;
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const override;
  [[nodiscard]] Expected<std::string> read_file(const std::string& path,
                                                std::uint64_t limit) const override;
  [[nodiscard]] bool stdout_is_terminal() const override { return terminal; }
};

}  // namespace willfit::app
