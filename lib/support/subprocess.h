// Runs another program from an argument vector, never through a shell:
// file names with quotes, `$(...)` or spaces are passed as they are, and
// nothing in them is ever interpreted.
#pragma once

#include <string>
#include <vector>

namespace mslport {

struct ProcessResult {
  bool started = false;    // false: the program could not be run (see error)
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it
  bool timed_out = false;  // killed because it ran past the time limit
  std::string output;      // its standard output and standard error, interleaved
  std::string error;       // why it did not start or could not be waited for

  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 1", "signal 9 (Killed)", "timed out after 30 s", "could not run: ...".
  std::string describe() const;
};

struct ProcessOptions {
  // 0 = no limit. Past it the process (and what it started in its own
  // process group) is killed with SIGKILL.
  double timeout_seconds = 0;
  // At most this much output is kept (the rest is read and dropped, so the
  // child never blocks on a full pipe).
  size_t max_output_bytes = 1 << 20;
};

// argv[0] is looked up in PATH when it has no slash (posix_spawnp). The
// child's standard input is /dev/null.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// How a command line would be typed in a POSIX shell, for messages only
// (never executed): each argument quoted when it needs it.
std::string display_command(const std::vector<std::string>& argv);

}  // namespace mslport
