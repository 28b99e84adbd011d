// Worker processes that take turns on the machine. `bench --target all`
// times each backend in a process of its own (bench/isolated.h), because two
// runtimes' worker threads in one process disturb each other. When those
// processes ran one after the other, a whole pass over the kernels apart, the
// machine they measured was not the same: on the 16-core H100 host the
// triad roof moved between 95 and 136 GB/s from one process to the next, and
// two full runs of three rounds disagreed by up to 27 % on the ratio of the
// sub-millisecond OpenMP kernels to PoCL. Run side by side instead, every
// worker blocks before each step that uses the machine (a roof, a kernel's
// input sets, one round of one kernel) until the coordinator gives it the
// turn, and the coordinator gives it to one worker at a time, in step order:
// each kernel's rounds then alternate between the backends seconds apart, as
// they do in one process, without the other runtime's threads beside them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace mslport::bench {

// One step of a worker's run, in the order run_bench takes them: the roofs
// before the kernels (phase 0), each kernel's preparation (sub -1) and rounds
// (sub 0, 1, ...) in phase 1, the roofs after (phase 2).
struct TurnStep {
  int phase = 0;
  std::string kernel;  // phase 1 only
  int sub = 0;

  std::string to_line() const;  // "1 rms_norm 2"; "-" for no kernel
  static std::optional<TurnStep> parse(const std::string& line);
};

// Which worker goes next: the one whose pending step comes first (phase, then
// the kernel's place in `kernel_order`, or its name when it has none there,
// then sub), the lowest index on a tie. nullopt marks a worker that has
// finished. Returns -1 when every worker has.
int next_turn(const std::vector<std::optional<TurnStep>>& pending, const std::vector<std::string>& kernel_order);

// The worker's side: before each step, says which step it is about to take
// on `to_coordinator` and waits for the turn on `from_coordinator`. False
// when the coordinator is gone.
bool wait_for_turn(int from_coordinator, int to_coordinator, const TurnStep& step);

struct TurnWorker {
  std::vector<std::string> argv;  // the worker's command, before the two descriptors it is given
  std::string log_path;           // its standard output and error
};

// Starts every worker at once (each with argv + the numbers of its two
// descriptors: the one it reads turns from, the one it announces steps on),
// gives the turns until all have finished, and waits for them. Each result's
// output is empty: it is in the worker's log_path.
std::vector<ProcessResult> run_taking_turns(const std::vector<TurnWorker>& workers,
                                            const std::vector<std::string>& kernel_order);

}  // namespace mslport::bench
