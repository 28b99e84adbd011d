// How addresses move along a row of a work-item loop: shared by the stores
// the C++ backend streams past the cache (streaming_stores.h) and the reads
// it prefetches ahead (row_prefetch.h). A row is the work-items of one
// (ly, lz) in x order, which the emitted loop visits one after another.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

// The statements of a work-item loop that every work-item of it runs: the
// loop's top level and the bodies of `if (known_true_var)` (pass -1 for
// none), up to the first statement that can leave the work-item (the
// emitter prints `if (c) return; rest` as `if (!c) { rest }`).
std::vector<const ir::Stmt*> statements_every_item_runs(const std::vector<const ir::Stmt*>& loop, int known_true_var);

// How much an expression grows from one work-item of a row to the next
// (x + 1; y and z fixed): 0 for the values every work-item of the row sees
// alike, nullopt where it is not known to be an affine function of x.
// Only integers of 32 bits or more carry a non-zero step (a narrower one
// could wrap inside a row). `loop`: statements_every_item_runs' list, whose
// declarations (given once, never written again) it looks through.
class RowStep {
 public:
  RowStep(const ir::Kernel& k, const StoragePlan& plan, const std::vector<const ir::Stmt*>& loop);
  std::optional<int64_t> of(const ir::Expr& e) const { return of(e, 0); }
  // The declarations `of` went through since the last call.
  std::set<int> take_used() const;
  // Those declarations in the loop's order: printed with lx = 0 before the
  // loop, they let an expression `of` accepted be evaluated for its first
  // work-item.
  std::vector<const ir::Stmt*> defs_in_order(const std::set<int>& used) const;

 private:
  std::optional<int64_t> of(const ir::Expr& e, int depth) const;
  const ir::Kernel& k_;
  const StoragePlan& plan_;
  std::vector<const ir::Stmt*> loop_;
  std::map<int, const ir::Stmt*>
      defs_;  // locals declared at the top of the loop with a value, never written again there
  mutable std::set<int> used_;
};

}  // namespace mslport::back::openmp
