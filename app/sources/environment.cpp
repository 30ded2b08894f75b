#include "sources/environment.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

extern char** environ;  // NOLINT: POSIX, for posix_spawnp

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

// Carriage return, the line, erase to the end of the line (ECMA-48 EL): the
// next update or the clearing "" overwrites it, so nothing is left behind.
void SystemEnvironment::progress(const std::string& line) const {
  if (isatty(STDERR_FILENO) != 1) {
    return;
  }
  const std::string out = "\r" + line + "\x1b[K";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, out.data(), out.size());
}

// Runs argv with posix_spawnp: stdout into a pipe, stdin and stderr on
// /dev/null (a probe must not print or wait for input). The pipe is read
// with poll() until EOF or the deadline; past the deadline the child is
// killed. Always reaped, so no zombie outlives the call.
Expected<std::string> SystemEnvironment::run_command(const std::vector<std::string>& argv,
                                                     int timeout_ms) const {
  if (argv.empty()) {
    return make_error("no command given");
  }
  int fds[2];
  if (pipe(fds) != 0) {
    return make_error(std::string("cannot run ") + argv[0] + ": " + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));  // NOLINT: posix_spawn's signature
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return make_error(argv[0] + " not found: " + std::strerror(rc));
  }
  std::string out;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[4096];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > (16u << 20)) {
      timed_out = true;  // runaway output: treat like a hang
      break;
    }
  }
  close(fds[0]);
  if (timed_out) {
    kill(pid, SIGKILL);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return make_error(argv[0] + " did not answer within " + std::to_string(timeout_ms) + " ms");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(argv[0] + " failed");
  }
  return out;
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

// Model files (issue 4).

Expected<std::uint64_t> SystemEnvironment::file_size(const std::string& path) const {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return make_error("cannot read '" + path + "': No such file or directory");
  }
  if (!std::filesystem::is_regular_file(status)) {
    return make_error("cannot read '" + path + "': not a regular file");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    return make_error("cannot read '" + path + "': " + ec.message());
  }
  return static_cast<std::uint64_t>(size);
}

Expected<std::string> SystemEnvironment::read_range(const std::string& path, std::uint64_t offset,
                                                    std::uint64_t length) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error("cannot read '" + path + "': " + std::strerror(errno));
  }
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in) {
    return std::string();
  }
  std::string data;
  data.resize(static_cast<std::size_t>(length));
  in.read(data.data(), static_cast<std::streamsize>(length));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    return make_error("cannot read '" + path + "'");
  }
  return data;
}

bool SystemEnvironment::is_directory(const std::string& path) const {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

Expected<std::vector<std::string>> SystemEnvironment::list_directory(
    const std::string& path) const {
  std::error_code ec;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) {
    return make_error("cannot list '" + path + "': " + ec.message());
  }
  std::sort(names.begin(), names.end());
  return names;
}

Expected<std::uint64_t> FakeEnvironment::file_size(const std::string& path) const {
  if (const auto it = sizes.find(path); it != sizes.end()) {
    return it->second;
  }
  const auto it = files.find(path);
  if (it == files.end()) {
    return make_error("cannot read '" + path + "': No such file or directory");
  }
  return static_cast<std::uint64_t>(it->second.size());
}

Expected<std::string> FakeEnvironment::read_range(const std::string& path, std::uint64_t offset,
                                                  std::uint64_t length) const {
  const auto size = file_size(path);
  if (!size) {
    return size.error();
  }
  const auto it = files.find(path);
  const std::string& content = it == files.end() ? std::string() : it->second;
  if (offset >= *size) {
    return std::string();
  }
  const std::uint64_t n = std::min(length, *size - offset);
  bytes_read += n;
  std::string out(static_cast<std::size_t>(n), '\0');
  if (offset < content.size()) {
    const auto have = std::min<std::uint64_t>(n, content.size() - offset);
    out.replace(0, static_cast<std::size_t>(have),
                content.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(have)));
  }
  return out;
}

bool FakeEnvironment::is_directory(const std::string& path) const {
  const std::string prefix = path.empty() || path.back() == '/' ? path : path + "/";
  const auto it = files.lower_bound(prefix);
  return it != files.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

Expected<std::vector<std::string>> FakeEnvironment::list_directory(const std::string& path) const {
  if (!is_directory(path)) {
    return make_error("cannot list '" + path + "': No such file or directory");
  }
  const std::string prefix = path.back() == '/' ? path : path + "/";
  std::set<std::string> names;
  for (auto it = files.lower_bound(prefix);
       it != files.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    const std::string rest = it->first.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace willfit::app

namespace willfit::app {

Expected<std::string> FakeEnvironment::run_command(const std::vector<std::string>& argv,
                                                   int /*timeout_ms*/) const {
  std::string key;
  for (const auto& a : argv) {
    key += (key.empty() ? "" : " ") + a;
  }
  const auto it = commands.find(key);
  if (it == commands.end()) {
    return make_error((argv.empty() ? std::string("command") : argv[0]) + " not found");
  }
  return it->second;
}

Expected<bool> SystemEnvironment::write_file(const std::string& path,
                                             const std::string& content) const {
  std::error_code ec;
  const std::filesystem::path target(path);
  if (target.has_parent_path()) {
    std::filesystem::create_directories(target.parent_path(), ec);
  }
  const std::string temp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) {
      std::filesystem::remove(temp, ec);
      return make_error("cannot write '" + path + "'");
    }
  }
  std::filesystem::rename(temp, target, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return make_error("cannot write '" + path + "': " + ec.message());
  }
  return true;
}

Expected<bool> FakeEnvironment::write_file(const std::string& path,
                                           const std::string& content) const {
  files[path] = content;
  sizes.erase(path);
  return true;
}

}  // namespace willfit::app
