#include "environment.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace willfit::app {

std::optional<std::string> SystemEnvironment::get(const std::string& name) const {
  const char* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): single-threaded
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

Expected<std::string> SystemEnvironment::read_file(const std::string& path,
                                                   std::uint64_t limit) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error("cannot read '" + path + "': " + std::strerror(errno));
  }
  std::string data;
  data.resize(static_cast<std::size_t>(limit));
  in.read(data.data(), static_cast<std::streamsize>(limit));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    return make_error("cannot read '" + path + "'");
  }
  return data;
}

bool SystemEnvironment::stdout_is_terminal() const {
  return isatty(STDOUT_FILENO) == 1;
}

std::optional<std::string> FakeEnvironment::get(const std::string& name) const {
  const auto it = vars.find(name);
  if (it == vars.end()) {
    return std::nullopt;
  }
  return it->second;
}

Expected<std::string> FakeEnvironment::read_file(const std::string& path,
                                                 std::uint64_t limit) const {
  const auto it = files.find(path);
  if (it == files.end()) {
    return make_error("cannot read '" + path + "': No such file or directory");
  }
  return it->second.substr(0, static_cast<std::size_t>(limit));
}

}  // namespace willfit::app
