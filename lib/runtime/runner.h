// The validation runtime: loads golden cases, runs emitted kernels on a
// target (OpenMP module or OpenCL program), compares, reports. No libclang.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/host_set_constants.h"

namespace mslport::runtime {

struct DispatchSpec {
  bool dispatch_threads = false;                  // Metal dispatchThreads (non-uniform)
  std::array<uint32_t, 3> threadgroups{1, 1, 1};  // derived for dispatch_threads
  std::array<uint32_t, 3> threads_per_threadgroup{1, 1, 1};
  std::array<uint32_t, 3> grid_threads{1, 1, 1};  // threadgroups*tptg unless dispatch_threads
};

enum class Access { Read, Write, ReadWrite };

struct BufferSpec {
  int index = -1;
  // A buffer whose address the host stores in the argument buffer bound at
  // `index`, this many bytes into it ("argument_buffer_offset" in
  // case.json; passes/flatten_argument_buffers.h); -1: bound at `index`.
  int64_t argument_buffer_offset = -1;
  std::string name;
  Access access = Access::Read;
  std::string data_path;      // absolute; empty for Write
  std::string expected_path;  // absolute; empty for Read
  double atol = 0, rtol = 0;
  std::string tolerance_note;
  // Optional "compare_as" of case.json: "" (by dtype), "exact", "bfloat16" or
  // "float16" (see runtime/compare.h). bf16 outputs stored as <u2 compare
  // exactly unless a case sets "bfloat16".
  std::string compare_as;
  // A write-only output of a case that gives inputs only (no "expected"):
  // its dtype ("<f4"-style) and shape, which size it.
  std::string dtype;
  std::vector<size_t> shape;
};

// How reports and captured files name a buffer: "3", or "0@8" for the
// buffer whose address is stored 8 bytes into argument buffer 0.
std::string buffer_key(const BufferSpec& b);

struct ThreadgroupMemorySpec {
  int index = 0;
  uint32_t bytes = 0;
};

struct GoldenCase {
  std::string kernel;
  std::string name;  // case name
  std::string dir;   // directory holding case.json
  std::string description;
  DispatchSpec dispatch;
  std::vector<BufferSpec> buffers;
  std::vector<ThreadgroupMemorySpec> threadgroup_memory;
  // The function constants the kernel is specialised with ("function_constants"
  // in case.json), name (or index) -> value as a C++ literal. The case runs
  // on a module translated with exactly these (Executor::function_constants).
  std::map<std::string, std::string> function_constants;
  // Not from case.json: where an executor writes the outputs after the run
  // (BUFFER_INDEX.npy each), for `check --differential`; empty = nowhere.
  std::string capture_dir;

  // A case that gives inputs only: no output has expected values
  // (`check --differential` compares the targets with each other on it).
  bool inputs_only() const {
    bool outputs = false;
    for (const auto& b : buffers) {
      if (b.access == Access::Read) continue;
      outputs = true;
      if (!b.expected_path.empty()) return false;
    }
    return outputs;
  }
};

struct LoadError {
  std::string file;     // the case.json (or .npy) at fault
  std::string message;  // names the field
};

// Loads every golden/<kernel>/<case>/case.json under root. A malformed case is
// reported in errors (file + field) and skipped; the others still load.
std::vector<GoldenCase> load_golden_dir(const std::string& root, std::vector<LoadError>* errors);

// A finding of `mslport check --sanitize` (mslport/sanitizer_rt.h), at a
// Metal source location, with an optional note at the other access.
struct Finding {
  std::string kind;  // "race" | "bounds" | "init" | "divergence"
  std::string file;
  int line = 0, col = 0;
  std::string message;
  std::string note_file;  // empty when there is no note
  int note_line = 0, note_col = 0;
  std::string note;
  std::string kernel, case_name;  // where it was first seen
  int cases = 0;                  // how many cases reported it (filled by check)
};

// Why one buffer failed a case, for machines (the JSON and JUnit reports);
// CaseResult::message says the same in words.
struct BufferFailure {
  int index = -1;      // the Metal buffer index
  std::string buffer;  // its name
  // "mismatch": elements out of tolerance; "size": the output's size is not
  // the expected one; "out_of_bounds": bytes after the buffer changed;
  // "read_only_modified": a read buffer changed.
  std::string kind;
  size_t count = 0;     // elements (or guard bytes) that differ
  size_t elements = 0;  // elements compared (guard bytes checked)
  // "tolerance" (atol + rtol * |expected|), "exact" or "bytes".
  std::string compare;
  double atol = 0, rtol = 0;
  // The first mismatches (at most kMaxReportedMismatches): each element's
  // index in the array's shape, and the values as text (numbers, "nan",
  // "inf", or 0x... bytes).
  std::vector<std::vector<size_t>> first_index;
  std::vector<std::string> first_got, first_expected;
};

struct CaseResult {
  std::string kernel;
  std::string case_name;
  std::string target;  // "openmp" | "opencl" (or a differential run's pair)
  std::string status;  // "pass" | "fail" | "error" | "not_covered"
  // Over the compared outputs; meaningful for "pass" and "fail" only.
  double max_abs_err = 0;
  double max_rel_err = 0;
  std::string message;                  // why it failed / errored
  std::vector<BufferFailure> failures;  // structured: why it failed
  double seconds = -1;                  // wall time of the run (launch and compare); < 0 = not run
  std::vector<Finding> findings;        // sanitized modules only
};

// One compiled set of kernels on one target.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string target() const = 0;
  virtual bool has_kernel(const std::string& name) const = 0;
  // Every kernel it has (for messages; empty when an executor cannot list them).
  virtual std::vector<std::string> kernel_names() const { return {}; }
  // What runs the kernels, for reports: the OpenCL platform and device, the
  // C++ compiler and CPU.
  virtual std::string device() const { return ""; }
  // Poisons write-only outputs, runs, compares every output.
  virtual CaseResult run(const GoldenCase& c) = 0;
  // A case that runs longer than this is stopped and reported as an error
  // "timed out after N s" (0 = no limit). The executors of this runtime
  // honour it wherever they run cases in a child process (the default).
  void set_case_timeout(double seconds) { case_timeout_ = seconds; }
  double case_timeout() const { return case_timeout_; }
  // The function constants its module was translated with on top of the
  // command line's (GoldenCase::function_constants); a case runs only on an
  // executor whose set is the case's, less the constants its kernel reads at
  // dispatch (case_runs_on).
  void set_function_constants(std::map<std::string, std::string> fc) { function_constants_ = std::move(fc); }
  // The function constants `kernel` reads that the host sets at dispatch:
  // a case gives their values (host_set_constants.h).
  virtual std::vector<HostSetConstant> host_set_constants(const std::string& kernel) const {
    (void)kernel;
    return {};
  }
  const std::map<std::string, std::string>& function_constants() const { return function_constants_; }

 private:
  double case_timeout_ = 0;
  std::map<std::string, std::string> function_constants_;
};

// The per-case limit `mslport check` and `mslport-run` use unless told
// otherwise (--case-timeout): long enough for the slowest golden case under
// --sanitize on a small machine, short enough that a kernel that never ends
// costs minutes, not hours.
constexpr double kDefaultCaseTimeoutSeconds = 300;

// Compiles an emitted .cpp into a shared object under build_dir (the
// compiler and flags of runtime/emitted_cxx.h, which `mslport --cxx` and
// `mslport --cflags` print, plus -shared -fPIC -DMSLPORT_RUNNER_MODULE) and
// dlopens it.
// The .so is named <stem>-<hash>.so, the hash covering the source, the headers
// it includes that resolve beside it or in the include dir, the compiler, the
// flags and the CPU, so reruns reuse it. On failure returns nullptr and the
// compiler's message. Environment: MSLPORT_CXX overrides the compiler,
// MSLPORT_INCLUDE_DIR the include dir (by default the installation's, found
// from the running program: support/install_paths.h).
// run() forks a child per case (buffers in shared memory) so that a kernel
// that crashes or runs past the case time limit is an "error" for its case;
// MSLPORT_RUNNER_INPROCESS=1 runs in-process instead (for debuggers; no
// time limit). Every buffer is followed by guard bytes: writing past the
// end, or into a "read" buffer, fails the case.
// The cache is content-addressed and safe for concurrent runs: the module is
// compiled from a private copy of exactly the bytes that were hashed, into a
// temporary name, then renamed into place.
std::unique_ptr<Executor> load_openmp_module(const std::string& cpp_path, const std::string& build_dir,
                                             std::string* error);

// How load_openmp_module compiles: the compiler (MSLPORT_CXX or the one
// chosen at build time), the include directory (MSLPORT_INCLUDE_DIR or the
// build's) and every flag, the include directory's -I among them.
struct OpenMpCompileCommand {
  std::string compiler;
  std::string include_dir;
  std::vector<std::string> flags;
};
OpenMpCompileCommand openmp_compile_command();

// Builds an emitted .cl on the first OpenCL platform whose name contains
// platform_filter (case-insensitive; empty = first platform with a device),
// on that platform's first device. A build failure returns nullptr with the
// build log. A kernel of the bindings that the program lacks, or whose
// argument count differs, is still listed by has_kernel and errors in run().
// Everything OpenCL runs in a worker process (runtime/isolated_executor.h):
// a kernel that crashes the driver, or runs past the case time limit, is an
// "error" for its case, and a fresh worker takes the next case. The calling
// process must not have used OpenCL itself before (a forked copy of an
// initialised driver does not work). MSLPORT_RUNNER_INPROCESS=1 runs it
// in-process instead (for debuggers; no isolation, no time limit).
std::unique_ptr<Executor> load_opencl_program(const std::string& cl_path, const std::string& bindings_json_path,
                                              const std::string& platform_filter, std::string* error);

struct OpenClOptions {
  // Builds with emitted_build_options (opencl_util.h): "-cl-std=CL1.2", strict
  // math, MSLPORT_CL_OPTIONS for experiments. On NVIDIA devices, SIMD-group
  // functions use warp shuffles; false keeps the emulation.
  bool nv_shfl = true;
};
std::unique_ptr<Executor> load_opencl_program(const std::string& cl_path, const std::string& bindings_json_path,
                                              const std::string& platform_filter, std::string* error,
                                              const OpenClOptions& options);

// Runs every case (optionally only kernels in kernel_filter) on every
// executor group; a case whose kernel no executor of a target has is
// "not_covered" for that target.
std::vector<CaseResult> run_cases(const std::vector<GoldenCase>& cases, const std::vector<std::string>& targets,
                                  const std::vector<Executor*>& executors,
                                  const std::vector<std::string>& kernel_filter);

// Table (kernel, case, target, status, max abs / rel error), then the message
// of every result that did not pass, then (only when either is nonzero) a line
// "N errors, N not covered", and last the line "N passed, N failed".
std::string format_table(const std::vector<CaseResult>& results);
// What a report says besides the results: what ran them, and how long.
struct ReportContext {
  std::string tool = "mslport";
  std::string version;
  std::string golden_dir;
  // The C++ compiler and its flags (empty when the C++/OpenMP target did
  // not run), and each OpenCL device, as "target" -> description.
  std::string compiler;
  std::vector<std::string> compiler_flags;
  std::vector<std::pair<std::string, std::string>> devices;
  // The sources' kernels (name, source file), and how many cases each has.
  std::vector<std::pair<std::string, std::string>> kernels;
  std::map<std::string, size_t> case_counts;
  // Wall times in seconds; < 0 when a phase did not run.
  double translate_seconds = -1, build_seconds = -1, run_seconds = -1, total_seconds = -1;
  bool sanitized = false;  // findings were looked for
};

// {"tool":{"name","version"},"golden","compiler":{"command","flags"}|null,
//  "devices":[{"target","device"}],"kernels":[{"name","source","cases"}],
//  "results":[{"kernel","case","target","status","max_abs_err","max_rel_err",
//              "time_s","message" (only when non-empty),"failures":[{"buffer",
//              "index","kind","count","elements","compare","atol","rtol",
//              "first":{"index":[[..]],"got":[..],"expected":[..]}}]}],
//  "summary":{"passed","failed","errors","not_covered","findings"},
//  "timings_s":{"translate","build","run","total"},"findings":[...]}
// A number that is absent is null: the errors of a result that did not
// compare (error, not_covered) and non-finite ones, a time not measured,
// tolerances of an exact comparison. Mismatching values are numbers where
// they are finite numbers, else strings ("nan", "inf", "0x..." bytes).
// Findings: [{"kind","file","line","col","message","kernel","case","cases",
// "note":{"file","line","col","message"}}] (empty unless sanitizing).
std::string format_json(const std::vector<CaseResult>& results, const std::vector<Finding>* findings = nullptr,
                        const ReportContext* context = nullptr);
// JUnit XML, as CI systems read it: a <testsuite> per target, a <testcase>
// per kernel and case (classname = kernel), with <failure> (fail), <error>
// (error) or <skipped> (not_covered), and the sanitizer's findings as
// failures of a testcase of their own.
std::string format_junit(const std::vector<CaseResult>& results, const std::vector<Finding>* findings,
                         const ReportContext& context);
// `file:line:col: warning: message [kernel / case]` and its note, one finding.
std::string format_finding(const Finding& f);

}  // namespace mslport::runtime
