// The `mslport` subcommands. Each returns the process exit status.
#pragma once

#include <string>
#include <vector>

#include "runtime/check_emitted.h"
#include "shared/bench_cli.h"
#include "support/diagnostics.h"

namespace mslport::tool {

extern const char* const kVersion;

// Everything the backends produce for one .metal file.
struct Translation {
  std::string source;        // the .metal path
  std::string stem;          // file name without .metal
  std::string cpp, header;   // OpenMP backend
  std::string cl, bindings;  // OpenCL backend
};

enum class Target { OpenMP, OpenCL, All };

// Front end + both (or one) backends, in memory. Diagnostics go to diags.
// `sanitize`: back::openmp::SanitizeCheck bits for the C++ output (0 = plain).
bool translate_file(const std::string& path, Target target, bool line_directives, DiagEngine& diags,
                    Translation* out, unsigned sanitize = 0);

// "race,bounds,init,divergence" -> SanitizeCheck bits; false on an unknown name.
bool parse_sanitize_list(const std::string& list, unsigned* checks, std::string* error);

// Writes a translation's files into `dir` (atomically) and describes them
// for the runtime; false with *error set on an I/O failure.
bool write_emitted(const Translation& t, const std::string& dir, runtime::EmittedFiles* files, std::string* error);

// Expands directories to the .metal files inside them (sorted).
std::vector<std::string> expand_sources(const std::vector<std::string>& paths, std::string* error);

struct CheckOptions {
  std::vector<std::string> sources;
  std::string golden_dir = "golden";
  std::string target = "all";
  std::string platform;
  std::string format = "table";
  std::string work_dir;
  std::vector<std::string> kernels;
  std::string sanitize;  // --sanitize LIST; empty = off
  double case_timeout = runtime::kDefaultCaseTimeoutSeconds;  // --case-timeout; 0 = no limit
};

struct BenchOptions {
  std::vector<std::string> sources;
  BenchCliOptions cli;  // the flags `mslport-run bench` shares
};

int run_translate(const std::string& file, const std::string& target, const std::string& output, bool line_directives);
struct IrOptions {
  std::string file, kernel;
  // The steps of this target's pipeline to print the IR around (`all`:
  // every step); none: the front end's IR.
  std::string target = "openmp";
  std::vector<std::string> print_before, print_after;
  bool verify_each = false;  // the IR verifier after every step
  std::string sanitize;      // the OpenMP pipeline as `check --sanitize LIST` runs it
};

int run_ir(const IrOptions& options);
int run_check(const CheckOptions& options);
int run_bench(const BenchOptions& options);
// time_report: print where the translation time went (phase_times.h).
// force: translate every source even if its stamp says it is unchanged.
int run_regen(const std::vector<std::string>& paths, const std::string& targets_dir, bool line_directives,
              bool time_report = false, bool force = false);
int run_diff(const std::vector<std::string>& sources, const std::string& targets_dir);

}  // namespace mslport::tool
