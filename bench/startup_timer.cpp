// Runs a command N times (stdout and stderr to /dev/null) and prints, on one
// line, the median and minimum wall time in microseconds and the largest peak
// RSS in KiB (from wait4's rusage, so the timer's own memory is not counted):
//   willfit_startup_timer N COMMAND [ARGS...]
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: willfit_startup_timer N COMMAND [ARGS...]\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<double> micros;
  long max_rss_kib = 0;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[2], &actions, nullptr, argv + 2, environ) != 0) {
      std::perror(argv[2]);
      return 2;
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    const auto stop = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
      std::fprintf(stderr, "%s failed (status %d)\n", argv[2], status);
      return 2;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    max_rss_kib = std::max(max_rss_kib, usage.ru_maxrss);
  }
  posix_spawn_file_actions_destroy(&actions);
  std::sort(micros.begin(), micros.end());
  std::printf("median_us=%.0f min_us=%.0f max_rss_kib=%ld\n", micros[micros.size() / 2],
              micros.front(), max_rss_kib);
  return 0;
}
