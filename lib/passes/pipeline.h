// Runs the steps of a backend in the order its raise.cc gives, and lets a
// reader or a test see the IR around each one: `mslport ir
// --print-before=<step> --print-after=<step>` (LLVM's flags; `all` for every
// step) and `--verify-each`, the IR verifier after every step.
#pragma once

#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

struct PipelineOptions {
  std::set<std::string> print_before, print_after;  // step names, or "all"
  int kernel = -1;                                  // print only this kernel (Module::kernels index; -1: all)
  bool verify_each = false;                         // ir::verify_kernel after every step
  std::ostream* out = nullptr;                      // where the IR is printed
  // The names of the steps run, each once, in their first order (the
  // tool checks the names it was asked for against them).
  std::vector<std::string>* steps_run = nullptr;
};

class Pipeline {
 public:
  // `options` may be null: the steps just run.
  Pipeline(ir::Module& m, DiagEngine& diags, const PipelineOptions* options)
      : m_(m), diags_(diags), options_(options) {}

  // A step on one kernel; false (and no later step) when it reports errors.
  bool run(const char* name, ir::Kernel& k, const std::function<bool()>& step);
  // A step on the whole module.
  bool run(const char* name, const std::function<bool()>& step);

  DiagEngine& diags() const { return diags_; }

 private:
  void note(const char* name);
  bool wants(const std::set<std::string>& names, const char* name) const;
  void print(const char* when, const char* name, const ir::Kernel* k);
  bool after(const char* name, const ir::Kernel* k, bool ok, int errors_before);

  ir::Module& m_;
  DiagEngine& diags_;
  const PipelineOptions* options_;
};

}  // namespace mslport::passes
