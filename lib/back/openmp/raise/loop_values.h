// What a loop over work-items declares at the top of each work-item for
// the statements it runs: the per-work-item builtins and the recomputed
// variables (Storage::Remat) they read, and the locals declared without a
// value at threadgroup level that only this loop uses.
#pragma once

#include <set>
#include <vector>

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

struct LoopValues {
  std::set<int> builtins;     // Kernel::params indices
  std::vector<int> remat;     // Kernel::vars indices, dependencies first
  std::vector<int> declared;  // Kernel::vars indices (StoragePlan::declared_in_loop)
};

// For the statements `stmts` and the values `exprs` (a condition, a
// collective's operands) of one loop.
LoopValues loop_values(const ir::Kernel& k, const StoragePlan& plan, const std::vector<const ir::Stmt*>& stmts,
                       const std::vector<const ir::Expr*>& exprs);

// In a loop over one SIMD group's lanes: takes out of `values` the
// SIMD-group index and the recomputed values built only from it and from
// uniform values (`row = tgid * 8 + simd_group`, `w_row = W + row * n`), to
// be declared once before the lane loop. Computed per lane, the compiler
// sees a vector of rows and gathers through them; once per group, a row's
// reads are contiguous loads.
LoopValues take_simd_group_values(const ir::Kernel& k, const StoragePlan& plan, LoopValues* values);

// The statements (or the recomputed values they read) use the SIMD lane or
// SIMD-group index.
bool uses_simd_lanes(const ir::Kernel& k, const StoragePlan& plan, const std::vector<const ir::Stmt*>& stmts);

// The statements read or write a private array at an index that differs
// between the work-items of a SIMD group (`lut[nibble]`).
bool indexes_private_array_per_lane(const ir::Kernel& k, const StoragePlan& plan,
                                    const std::vector<const ir::Stmt*>& stmts);

}  // namespace mslport::back::openmp
