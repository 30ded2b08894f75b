// Runs commands N times each (stdout and stderr to /dev/null) and prints, on
// one line per command, the median and minimum wall time in microseconds and
// the largest peak RSS in KiB (from wait4's rusage, so the timer's own memory
// is not counted):
//   willfit_startup_timer N COMMAND [ARGS...] [--vs COMMAND [ARGS...]]
// With --vs the two commands run in turn (A, B, A, B, ...), so a change in the
// machine's load between runs reaches both alike, and a last line gives the
// median of the N ratios B/A of neighbouring runs.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace {

struct Timings {
  std::vector<double> micros;
  long max_rss_kib = 0;
};

// One run of argv[0] with its arguments; false (and a message) when it
// cannot start or ends other than with exit status 0 or 1.
bool run_once(char** argv, const posix_spawn_file_actions_t& actions, Timings& t) {
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ) != 0) {
    std::perror(argv[0]);
    return false;
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const auto stop = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
    std::fprintf(stderr, "%s failed (status %d)\n", argv[0], status);
    return false;
  }
  t.micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  t.max_rss_kib = std::max(t.max_rss_kib, usage.ru_maxrss);
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void print(const Timings& t) {
  std::printf("median_us=%.0f min_us=%.0f max_rss_kib=%ld\n", median(t.micros),
              *std::min_element(t.micros.begin(), t.micros.end()), t.max_rss_kib);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::atoi(argv[1]) < 1) {
    std::fprintf(stderr,
                 "usage: willfit_startup_timer N COMMAND [ARGS...] [--vs COMMAND [ARGS...]]\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  char** first = argv + 2;
  char** second = nullptr;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--vs") == 0 && i + 1 < argc) {
      argv[i] = nullptr;  // ends the first command's argument list
      second = argv + i + 1;
      break;
    }
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  Timings a;
  Timings b;
  std::vector<double> ratios;
  for (int i = 0; i < runs; ++i) {
    if (!run_once(first, actions, a) || (second != nullptr && !run_once(second, actions, b))) {
      return 2;
    }
    if (second != nullptr) {
      ratios.push_back(b.micros.back() / a.micros.back());
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  print(a);
  if (second != nullptr) {
    print(b);
    std::printf("median_ratio=%.3f\n", median(ratios));
  }
  return 0;
}
