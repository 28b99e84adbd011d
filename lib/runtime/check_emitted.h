// The core of `mslport check`, shared by `mslport` (which translates first)
// and `mslport-run` (which checks committed targets/ and needs no libclang):
// build emitted files for each target, run the golden cases, report.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/runner.h"

namespace mslport::runtime {

// One .metal file's emitted code on disk.
struct EmittedFiles {
  std::string source;        // for messages
  std::string cpp;           // OpenMP .cpp (its .h beside it); empty if absent
  std::string cl, bindings;  // OpenCL .cl and .bindings.json; empty if absent
  // The golden cases' function constants it was translated with (on top of
  // the command line's): only cases with exactly these run on it.
  std::map<std::string, std::string> function_constants;
};

struct CheckRequest {
  std::vector<EmittedFiles> modules;
  std::vector<std::string> targets;  // "openmp", "opencl"
  std::string golden_dir = "golden";
  std::string platform;
  std::string format = "table";      // or "json"
  std::string build_dir;             // where modules are compiled
  std::vector<std::string> kernels;  // empty = all
  // Modules are sanitized (--sanitize): print their findings as diagnostics
  // (stderr), add them to the JSON report; any finding fails the check.
  bool sanitize = false;
  // --case-timeout: a case running longer is stopped and is an error.
  double case_timeout_s = kDefaultCaseTimeoutSeconds;
};

// The files `mslport regen` wrote under `targets_dir` (openmp/STEM.cpp,
// opencl/STEM.cl + STEM.bindings.json), one entry per stem, sorted. Empty
// (and *error set) when there are none, or when a regen was interrupted
// there and nothing has completed it yet (its files may be half old, half
// new).
std::vector<EmittedFiles> find_emitted_targets(const std::string& targets_dir, std::string* error);

// Prints the report to stdout, problems to stderr; returns the exit status
// (0 = every covered case passed and nothing failed to build or load).
// Checking nothing is a failure: no golden case at all, or none whose
// kernel is in the modules. So is a kernel that two modules of one target
// define (which of them would run is an accident of order).
int check_emitted(const CheckRequest& request, bool earlier_failures);

}  // namespace mslport::runtime
