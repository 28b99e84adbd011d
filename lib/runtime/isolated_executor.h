// Runs an executor in a worker process, so that nothing a kernel does can
// take the whole check down: a kernel that makes the OpenCL driver crash
// (an out-of-bounds write on PoCL is a segfault in the driver's thread), or
// that never finishes, costs its own case an "error" and nothing else.
//
// The worker is forked (not exec'd) from the calling process, then builds
// the executor with `make` and serves cases one at a time over a socket.
// When it dies or runs past the case time limit it is killed and reaped,
// the case is reported with the signal (or "timed out"), and the next case
// starts a fresh worker (which builds again; OpenCL drivers cache builds).
// At most 8 workers live at once in a process (each holds a driver, with a
// thread per core on PoCL): the least recently used are stopped and start
// again when their executor next runs a case. run_cases runs each
// executor's cases together, so that is once per executor.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "runtime/runner.h"

namespace mslport::runtime {

using ExecutorFactory = std::function<std::unique_ptr<Executor>(std::string* error)>;

// Starts the first worker and waits for its build; nullptr with *error
// (the factory's message, or how the worker died) when that fails.
std::unique_ptr<Executor> make_isolated_executor(ExecutorFactory make, std::string* error);

}  // namespace mslport::runtime
