#include "support/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace mslport {

namespace {

std::string signal_name(int sig) {
  const char* d = strsignal(sig);
  return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
}

// Waits for `pid`; EINTR is retried.
bool wait_for(pid_t pid, int* status) {
  while (::waitpid(pid, status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

}  // namespace

std::string ProcessResult::describe() const {
  if (!started) return "could not run: " + error;
  if (timed_out) return "killed after the time limit";
  if (signal) return signal_name(signal);
  return "exit " + std::to_string(exit_code);
}

std::string display_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty();
    for (char c : a)
      if (!(isalnum(static_cast<unsigned char>(c)) || std::strchr("-_./=+,:@%", c))) plain = false;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so that a time limit also ends what it started
  // (a compiler driver's cc1, say). Default signal dispositions: the child
  // must not inherit an ignored SIGPIPE or a handler's mask.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    r.error = argv[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;

  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.timeout_seconds));
  char buf[8192];
  while (true) {
    int wait_ms = -1;
    if (options.timeout_seconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        r.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 60'000));
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // the deadline is checked above
    ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // EOF: every copy of the write end is closed
    size_t keep = std::min(static_cast<size_t>(got),
                           options.max_output_bytes - std::min(options.max_output_bytes, r.output.size()));
    r.output.append(buf, keep);
  }
  ::close(fds[0]);
  int status = 0;
  bool reaped = false;
  // Its output is closed, but it may still run (a child that closed its
  // streams): the deadline holds while it is waited for.
  while (!r.timed_out && !reaped && options.timeout_seconds > 0) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) reaped = true;
    else if (w < 0 && errno != EINTR) break;
    else if (Clock::now() >= deadline) r.timed_out = true;
    else ::usleep(5000);
  }
  if (r.timed_out) ::kill(-pid, SIGKILL);
  if (!reaped && !wait_for(pid, &status)) {
    r.error = std::string("waitpid: ") + std::strerror(errno);
    r.started = false;
    return r;
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (r.timed_out) r.error = "killed after " + std::to_string(options.timeout_seconds) + " s";
  return r;
}

}  // namespace mslport
