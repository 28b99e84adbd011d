// Step: the storage plan of one kernel (the MCUDA / PoCL approach): a
// threadgroup runs on one CPU thread; statements between synchronisation
// points become loops over the threadgroup's work-items.
//
// The plan decides, for a lowered kernel (passes::lower_synchronisation):
//  * which statements run once per threadgroup ("threadgroup level": they
//    contain a barrier, a collective, a uniform return, or define/assign a
//    threadgroup-uniform variable) — everything else runs inside a
//    work-item loop;
//  * where each variable lives: a plain local inside one work-item loop, a
//    per-work-item array in the threadgroup's state (its value crosses a
//    barrier or collective), or a single threadgroup-level scalar (uniform).
#pragma once

#include <unordered_set>
#include <vector>

#include "ir/analysis/uniformity.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

enum class Storage {
  Local,      // declared inside the one work-item loop that uses it
  PerThread,  // array indexed by work-item, kept across loops
  Uniform,    // one value per threadgroup
  // Per-thread, defined once by a pure function of thread ids, uniform
  // values and other Remat variables: recomputed in each work-item loop
  // that uses it instead of kept in an array. A loop then sees `i = tg*256
  // + lx` as an affine function of its induction variable, so `a[i]` is a
  // contiguous vector load rather than a gather.
  Remat,
};

struct StoragePlan {
  bool has_sync = false;                         // any barrier or collective
  std::vector<Storage> storage;                  // per Kernel::vars
  std::unordered_set<const ir::Stmt*> tg_level;  // statements run once per threadgroup
  ir::analysis::UniformityInfo uniformity;

  std::vector<const ir::Expr*> remat_init;  // per Kernel::vars: the defining expression of Remat ones
  // Local variables whose declaration sits at threadgroup level without an
  // initialiser: declared at the top of the one work-item loop using them.
  std::unordered_set<int> declared_in_loop;

  bool is_tg_level(const ir::Stmt* s) const { return tg_level.count(s) != 0; }
  // Can this expression be evaluated once per threadgroup (no per-thread
  // values, no varying builtins)?
  bool tg_evaluable(const ir::Kernel& k, const ir::Expr& e) const;
};

StoragePlan plan_storage(const ir::Kernel& k);

}  // namespace mslport::back::openmp
