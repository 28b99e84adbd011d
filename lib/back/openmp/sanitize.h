// Instrumentation decisions for `mslport check --sanitize` (EmitOptions::
// sanitize): which accesses of a kernel go through the checker of
// mslport/sanitizer_rt.h, the source sites they report, and the allocations
// ("regions") the emitted threadgroup function registers. Only used when
// sanitizing; the default output never sees it.
#pragma once

#include <climits>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport::back::openmp {

class CppPrinter;

// EmitOptions::sanitize bits (the same values as mslport::san::kRace ...).
enum SanitizeCheck : unsigned { kSanitizeRace = 1, kSanitizeBounds = 2, kSanitizeInit = 4, kSanitizeDivergence = 8 };

class Sanitizer {
 public:
  static constexpr int kNotChecked = INT_MIN;
  Sanitizer(const ir::Kernel& k, unsigned checks) : k_(k), checks_(checks) {}

  // The region argument of Checker::ref for an access through `base` (the
  // array or pointer indexed or dereferenced): a static threadgroup array or
  // a buffer / threadgroup parameter by id, a pointer into device or
  // threadgroup memory to be looked up at run time, or kNotChecked
  // (private arrays and pointers, vectors, structs of constants).
  int region_of(const ir::Expr& base) const;
  // The region argument for the memory a pointer expression points into
  // (simdgroup_load / simdgroup_store): the allocation under `&a[i]`, `p + n`
  // and casts when it is known statically, else looked up at run time.
  int pointer_region(const ir::Expr& ptr) const;
  unsigned checks() const { return checks_; }
  // C++ name of the static mslport::san::Site for `loc`.
  std::string site(const ir::SourceLoc& loc);
  // Definitions of every site named so far (before the threadgroup function).
  std::string site_definitions() const;
  // Statements that start the checker at the top of the threadgroup function.
  std::vector<std::string> begin_statements(const CppPrinter& p) const;

 private:
  const ir::Kernel& k_;
  unsigned checks_;
  std::vector<ir::SourceLoc> sites_;
};

}  // namespace mslport::back::openmp
