// Work-item loops whose whole body is `if (tid < n) { ... }` with `n` the
// same for every work-item: the tree reductions' `for (stride = tg_size / 2;
// stride > 0; stride >>= 1) { if (tid < stride) sh[tid] += sh[tid + stride];
// barrier }`. The work-items that pass are a prefix of the loop's order, so
// the loop can visit only them and drop the test: log2(256) masked passes
// over 256 work-items become passes over 128, 64, ... 1 (measured on the
// 2-core VM: fused_norm_add_f32 2.80 -> 2.65 ms, bf16_matvec's reduction
// 0.5 ms of 4.6).
#pragma once

#include <optional>
#include <vector>

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

struct PrefixGuard {
  // The index whose prefix passes: the flat index in the threadgroup
  // (thread_index_in_threadgroup), the x position in it (scalar
  // thread_position_in_threadgroup or the .x of the uint3 one), or the x
  // position in the grid (the same for thread_position_in_grid: the group's
  // first x plus the x position, below 2^32 as the grid is).
  enum class Index { Flat, X, GridX };
  Index index = Index::Flat;
  const ir::Expr* bound = nullptr;    // uint, evaluable once per threadgroup
  std::vector<const ir::Stmt*> body;  // what the passing work-items run
  const ir::Stmt* test = nullptr;     // the `if` that holds the test
};

// `s` is `if (id < n) B` or `if (n > id) B` with no else, `id` one of the
// indices above (uint), and `n` made only of literals, uniform
// variables that B does not write and whose address the kernel never takes,
// threadgroup-uniform builtins, and scalar / struct-field reads of
// `constant` parameters (read-only: B cannot change them), with no call,
// memory index or assignment: evaluating it once before the loop gives
// every work-item the value its own test would read.
std::optional<PrefixGuard> match_prefix_guard(const ir::Kernel& k, const StoragePlan& plan, const ir::Stmt& s);

// The same for a region `if (id >= n) return; B...` (or `n <= id`): the
// work-items that do not return are the prefix id < n. `region` must have no
// other return.
std::optional<PrefixGuard> match_prefix_return(const ir::Kernel& k, const StoragePlan& plan,
                                               const std::vector<const ir::Stmt*>& region);

}  // namespace mslport::back::openmp
