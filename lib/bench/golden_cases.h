// Bench cases from golden cases (`bench --golden DIR`): any kernel that has
// a golden case can be timed, on the case's own inputs and dispatch. Per
// kernel the largest case counts (by the bytes of all its buffers), or the
// case of a given name. A case that gives function constants runs on a
// translation made with them, as `mslport check` does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/cases.h"
#include "runtime/runner.h"

namespace mslport::bench {

// The bytes of a case's buffers: `data` for read and read_write buffers,
// `expected` for write-only ones (from the .npy headers). 0 if a header
// cannot be read.
uint64_t golden_case_bytes(const runtime::GoldenCase& c);

struct GoldenSelection {
  std::map<std::string, runtime::GoldenCase> cases;  // kernel -> the case to time
  std::vector<std::string> skipped;                  // "kernel: why" (not asked by name)
  std::vector<std::string> errors;                   // asked by name and cannot be timed; unreadable cases
};

// Picks the case to time for each kernel: those in `asked` (--kernel), or
// else every kernel of `source_kernels`. `case_name` (--case) names the
// case; empty = the largest (ties: the first by name). `runnable` says
// whether a case can run (its function constants have a translation).
// A kernel asked by name that is not in the sources, has no (such) case or
// only cases that cannot run is an error; other kernels without one are
// skipped. Selecting nothing at all, with no error yet, is an error too.
GoldenSelection select_golden_cases(const std::string& golden_dir, const std::vector<std::string>& source_kernels,
                                    const std::vector<std::string>& asked, const std::string& case_name,
                                    const std::function<bool(const runtime::GoldenCase&)>& runnable);

// The bench case of a golden case: its dispatch and threadgroup memory,
// every input buffer filled with the case's data (the same in every input
// set), write-only outputs zeroed. Bytes moved per launch: each buffer the
// kernel reads counted once as read, each it writes once as written
// (read_write: both), whether or not the kernel touches all of it or reads
// some of it more than once. Throws std::runtime_error naming a file that
// cannot be read.
BenchCase bench_case_from_golden(const runtime::GoldenCase& c);

}  // namespace mslport::bench
