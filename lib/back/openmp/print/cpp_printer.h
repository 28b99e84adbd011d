// Prints IR types and expressions as C++ for the OpenMP backend. Knows how
// each variable is stored (raise/storage.h) but decides nothing else.
#pragma once

#include <string>

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::back::openmp {

class CppPrinter {
 public:
  CppPrinter(const ir::Module& m, const ir::Kernel* k, const StoragePlan* plan, DiagEngine& diags)
      : m_(m), k_(k), plan_(plan), diags_(diags) {}

  std::string type(const ir::Type& t) const;
  // "float name[8]" / "const float* name"
  std::string declarator(const ir::Type& t, const std::string& name) const;
  // A local's declaration: a const variable's `const` qualifies the variable
  // itself, so a pointer's goes after the `*` (`T* const p`, a reference
  // the front end made a pointer; `const T* p` would forbid writes through it).
  std::string var_declarator(const ir::Var& v) const;
  std::string scalar(ir::ScalarKind s) const;
  // `in_work_item`: inside a work-item loop (per-thread storage is `st.x[wi]`).
  std::string expr(const ir::Expr& e, bool in_work_item);
  std::string var_ref(int var, bool in_work_item);
  std::string literal_float(const ir::Expr& e) const;
  bool ok() const { return ok_; }
  // Reads of `var` print as `true` (-1: none): the emitter's copy of a
  // work-item loop for when every work-item is still alive.
  void set_known_true(int var) { known_true_ = var; }
  int known_true() const { return known_true_; }
  // The work-item loop being printed has no `omp simd`: uint division by a
  // run-time value is a hardware divide there (mslport::udiv_scalar).
  void set_scalar_work_items(bool scalar) { scalar_work_items_ = scalar; }

 private:
  std::string call(const ir::Expr& e, bool wi);
  // The sanitizer's intrinsics (raise/sanitize.h), as calls of the
  // threadgroup's checker; empty for any other call.
  std::string sanitizer_call(const ir::Expr& e, bool wi);
  void unsupported(const ir::SourceLoc& loc, const std::string& what);

  const ir::Module& m_;
  const ir::Kernel* k_;
  const StoragePlan* plan_;
  DiagEngine& diags_;
  bool ok_ = true;
  int known_true_ = -1;
  bool scalar_work_items_ = false;
};

// Metal builtin functions the runtime header implements (mslport::msl::*).

}  // namespace mslport::back::openmp
