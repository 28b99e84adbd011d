// The `mslport` subcommands. Each returns the process exit status.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "front/parse_metal.h"
#include "runtime/check_emitted.h"
#include "shared/bench_cli.h"
#include "support/diagnostics.h"
#include "support/project_file.h"

namespace mslport::tool {

extern const char* const kVersion;

// Everything the backends produce for one .metal file.
struct Translation {
  std::string source;                  // the .metal path
  std::string stem;                    // file name without .metal
  std::string cpp, header;             // OpenMP backend
  std::string cl, bindings;            // OpenCL backend
  int kernels = 0;                     // kernels translated
  std::vector<SkippedKernel> skipped;  // and those left out, with the reasons
  // Every kernel the file defines (translated or not), as far as the front
  // end got; set also when the translation fails.
  std::vector<std::string> kernel_names;
  // By kernel: the function constants it reads that the host sets at
  // dispatch, each by name and by index (how a golden case may name it).
  std::map<std::string, std::vector<std::string>> set_at_dispatch;
};

enum class Target { OpenMP, OpenCL, All };

// How a file is translated.
struct TranslateOptions {
  bool line_directives = false;
  // back::openmp::SanitizeCheck bits for the C++ output (0 = plain).
  unsigned sanitize = 0;
  // -I, -D, -U, --function-constant.
  front::ParseOptions parse;
  // Only these kernels (empty: all).
  std::vector<std::string> kernels;
  // Kernels that cannot be translated fail the file (--Werror) instead of
  // being left out with a warning.
  bool werror = false;
  // The source's text when it is not read from `path` (standard input:
  // path is then "<stdin>", which diagnostics name).
  std::optional<std::string> source_text;
  // The stem of the emitted files' names (default: the source's).
  std::string stem;
};

// Front end + both (or one) backends, in memory. Diagnostics go to diags,
// skipped kernels to out->skipped (reported by report_skipped). A kernel is
// translated only when every requested target takes it. Returns false when
// the file fails (an error outside kernels, no kernel left, or a skipped
// kernel under --Werror).
bool translate_file(const std::string& path, Target target, const TranslateOptions& options, DiagEngine& diags,
                    Translation* out);

// Prints each skipped kernel's reasons as warnings (errors under --Werror)
// and the file's summary line "N kernels translated, M skipped" when any
// was skipped or `always`.
void report_skipped(const Translation& t, const TranslateOptions& options, bool always, std::ostream& os);

// "race,bounds,init,divergence" -> SanitizeCheck bits; false on an unknown name.
bool parse_sanitize_list(const std::string& list, unsigned* checks, std::string* error);

// Writes a translation's files into `dir` (atomically) and describes them
// for the runtime; false with *error set on an I/O failure.
bool write_emitted(const Translation& t, const std::string& dir, runtime::EmittedFiles* files, std::string* error);

// The function constants of a golden case that a translation of `kernel`
// must fix: the case's, less those the kernel reads at dispatch (which the
// runner passes with the case's values).
std::map<std::string, std::string> fixed_at_translation(const Translation& probe, const std::string& kernel,
                                                        const std::map<std::string, std::string>& case_constants);

// Expands directories to the .metal files inside them (sorted).
std::vector<std::string> expand_sources(const std::vector<std::string>& paths, std::string* error);

struct CheckOptions {
  std::vector<std::string> sources;
  TranslateOptions translate;  // -I, -D, -U, --function-constant, --Werror
  std::string golden_dir;      // main.cc fills it: --golden, the project's, or golden
  std::string target = "all";
  std::string platform;
  std::string format = "table";
  std::string work_dir;
  std::vector<std::string> kernels;
  std::string sanitize;                                       // --sanitize LIST; empty = off
  double case_timeout = runtime::kDefaultCaseTimeoutSeconds;  // --case-timeout; 0 = no limit
  bool differential = false;                                  // --differential
  bool allow_missing_cases = false;                           // --allow-missing-cases
  bool allow_other_cases = false;                             // --allow-other-cases
};

struct InitOptions {
  std::vector<std::string> sources, include_dirs, defines;
  std::string golden_dir = "golden";
  std::string targets_dir = "targets";
  std::string output = "mslport.toml";
  bool force = false;
};

struct NewCaseOptions {
  std::string kernel;
  std::string source;  // --src; empty: the project's sources
  std::string case_name = "small";
  std::string output;  // folder, or - for stdout; empty: GOLDEN/KERNEL/CASE
  bool force = false;
  bool inputs_only = false;  // outputs declared by dtype and shape, no expected values
  front::ParseOptions parse;
};

struct BenchOptions {
  std::vector<std::string> sources;
  TranslateOptions translate;
  BenchCliOptions cli;  // the flags `mslport-run bench` shares
};

// Translates one source for `mslport bench` into run_dir/<index>/... and
// appends its modules and kernels to *req (tool/bench_sources.cc): with
// --golden, once per function-constant set of the golden cases chosen for
// its kernels. *failed when it does not translate; false on an I/O error.
bool emit_bench_modules(const std::string& src, size_t index, Target tg, const BenchOptions& opt,
                        const std::string& run_dir, bench::BenchRequest* req, bool* failed);

// `file` "-" reads standard input; `output` "" or "-" is stdout.
// `bindings` (opencl): where the bindings JSON goes; "" = beside the output
// (none with stdout).
int run_translate(const std::string& file, const std::string& target, const std::string& output,
                  const std::string& bindings, const TranslateOptions& options);
struct IrOptions {
  std::string file, kernel;
  // The steps of this target's pipeline to print the IR around (`all`:
  // every step); none: the front end's IR.
  std::string target = "openmp";
  std::vector<std::string> print_before, print_after;
  bool verify_each = false;   // the IR verifier after every step
  std::string sanitize;       // the OpenMP pipeline as `check --sanitize LIST` runs it
  front::ParseOptions parse;  // -I, -D, -U, --function-constant
};

int run_ir(const IrOptions& options);
int run_check(const CheckOptions& options);
int run_bench(const BenchOptions& options);
// time_report: print where the translation time went (phase_times.h).
// force: translate every source even if its stamp says it is unchanged.
int run_regen(const std::vector<std::string>& paths, const std::string& targets_dir, const TranslateOptions& options,
              bool time_report = false, bool force = false);
int run_diff(const std::vector<std::string>& sources, const std::string& targets_dir, const TranslateOptions& options);
int run_init(const InitOptions& options);
int run_new_case(const NewCaseOptions& options, const std::optional<ProjectFile>& project);

// --include-dir, --cxx, --cflags, --python-dir (host_info.cc).
enum class HostInfo { IncludeDir, Cxx, Cflags, PythonDir };
int print_host_info(HostInfo what);

}  // namespace mslport::tool
