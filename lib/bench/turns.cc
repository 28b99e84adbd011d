#include "bench/turns.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sstream>
#include <tuple>

namespace mslport::bench {

std::string TurnStep::to_line() const {
  return std::to_string(phase) + " " + (kernel.empty() ? "-" : kernel) + " " + std::to_string(sub);
}

std::optional<TurnStep> TurnStep::parse(const std::string& line) {
  std::istringstream in(line);
  TurnStep s;
  std::string rest;
  if (!(in >> s.phase >> s.kernel >> s.sub) || (in >> rest)) return std::nullopt;
  if (s.kernel == "-") s.kernel.clear();
  return s;
}

int next_turn(const std::vector<std::optional<TurnStep>>& pending, const std::vector<std::string>& kernel_order) {
  // A kernel named in the order sorts by its place there, before any other;
  // the others by name (every worker plans its kernels in the same order).
  auto key = [&](const TurnStep& s) {
    auto it = std::find(kernel_order.begin(), kernel_order.end(), s.kernel);
    size_t place = it == kernel_order.end() ? kernel_order.size() : size_t(it - kernel_order.begin());
    return std::make_tuple(s.phase, place, it == kernel_order.end() ? s.kernel : std::string(), s.sub);
  };
  int best = -1;
  for (size_t i = 0; i < pending.size(); ++i) {
    if (!pending[i]) continue;
    if (best < 0 || key(*pending[i]) < key(*pending[best])) best = int(i);
  }
  return best;
}

namespace {

bool write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

// One line (without its newline); nullopt at the end of the stream.
std::optional<std::string> read_line(int fd) {
  std::string line;
  char c;
  for (;;) {
    ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return line.empty() ? std::nullopt : std::optional<std::string>(line);
    if (c == '\n') return line;
    line += c;
  }
}

}  // namespace

bool wait_for_turn(int from_coordinator, int to_coordinator, const TurnStep& step) {
  if (!write_all(to_coordinator, step.to_line() + "\n")) return false;
  char c;
  for (;;) {
    ssize_t n = ::read(from_coordinator, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    return n == 1;
  }
}

std::vector<ProcessResult> run_taking_turns(const std::vector<TurnWorker>& workers,
                                            const std::vector<std::string>& kernel_order) {
  struct Running {
    pid_t pid = -1;
    int turns_w = -1;  // the coordinator writes a byte: your turn
    int steps_r = -1;  // the coordinator reads the worker's next step
  };
  std::vector<ProcessResult> out(workers.size());
  std::vector<Running> run(workers.size());
  // A worker that dies leaves a pipe without a reader: a write to it must
  // fail, not end the coordinator.
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &before);
  for (size_t i = 0; i < workers.size(); ++i) {
    int turns[2], steps[2];
    if (::pipe2(turns, O_CLOEXEC) != 0) {
      out[i].error = std::string("pipe: ") + std::strerror(errno);
      continue;
    }
    if (::pipe2(steps, O_CLOEXEC) != 0) {
      out[i].error = std::string("pipe: ") + std::strerror(errno);
      ::close(turns[0]);
      ::close(turns[1]);
      continue;
    }
    // Everything the child needs is built before fork: after it, only
    // async-signal-safe calls until exec.
    std::vector<std::string> args = workers[i].argv;
    args.push_back(std::to_string(turns[0]));
    args.push_back(std::to_string(steps[1]));
    std::vector<char*> cargv;
    for (auto& a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const char* log = workers[i].log_path.c_str();
    pid_t pid = ::fork();
    if (pid == 0) {
      int logfd = ::open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (logfd < 0 || devnull < 0) ::_exit(127);
      ::dup2(devnull, 0);
      ::dup2(logfd, 1);
      ::dup2(logfd, 2);
      // The worker's two ends stay open across exec; everything else closes.
      ::fcntl(turns[0], F_SETFD, 0);
      ::fcntl(steps[1], F_SETFD, 0);
      ::execv(cargv[0], cargv.data());
      ::_exit(127);
    }
    ::close(turns[0]);
    ::close(steps[1]);
    if (pid < 0) {
      out[i].error = std::string("fork: ") + std::strerror(errno);
      ::close(turns[1]);
      ::close(steps[0]);
      continue;
    }
    out[i].started = true;
    run[i] = {pid, turns[1], steps[0]};
  }

  // Each worker's next step; nullopt once it has finished (or gave a line
  // that is not a step: it is then let run to its end on its own).
  std::vector<std::optional<TurnStep>> pending(workers.size());
  auto read_step = [&](size_t i) {
    pending[i].reset();
    if (run[i].steps_r < 0) return;
    if (auto line = read_line(run[i].steps_r)) pending[i] = TurnStep::parse(*line);
    if (!pending[i]) {
      ::close(run[i].steps_r);
      run[i].steps_r = -1;
      ::close(run[i].turns_w);
      run[i].turns_w = -1;
    }
  };
  // Every worker's first step is known before any turn is given: the
  // workers build their kernels side by side, then wait.
  for (size_t i = 0; i < workers.size(); ++i) read_step(i);
  for (int i; (i = next_turn(pending, kernel_order)) >= 0;) {
    if (!write_all(run[i].turns_w, "t")) {
      pending[i].reset();
      continue;
    }
    read_step(size_t(i));  // returns when the worker asks for its next turn, or ends
  }
  for (size_t i = 0; i < workers.size(); ++i) {
    if (run[i].pid < 0) continue;
    if (run[i].turns_w >= 0) ::close(run[i].turns_w);
    if (run[i].steps_r >= 0) ::close(run[i].steps_r);
    int status = 0;
    while (::waitpid(run[i].pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) out[i].exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) out[i].signal = WTERMSIG(status);
  }
  ::sigaction(SIGPIPE, &before, nullptr);
  return out;
}

}  // namespace mslport::bench
