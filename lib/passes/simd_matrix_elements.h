#pragma once
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

// simdgroup_matrix<T, 8, 8>::thread_elements(), on backends where every lane
// holds the whole tile. In Metal each of the 32 lanes owns two adjacent
// elements of a row; the front end spells `m.thread_elements()` as
// m[__thread_elements()] (Index of the tile by the lane's pair index, the
// tile's elements numbered as row-major pairs). This pass, once helpers are
// inlined:
//  * replaces each __thread_elements() with the lane map of MLX's steel
//    BaseMMAFrag (the layout code written for Apple GPUs relies on):
//      q = l / 4; row = (q & 4) + (l / 2) % 4; col = (q & 2) * 2 + (l % 2) * 2
//      pair = row * 4 + col / 2    (elements (row, col) and (row, col + 1))
//    with l the kernel's [[thread_index_in_simdgroup]] (added if absent);
//  * before a multiply, multiply-accumulate or store reads a tile that a
//    lane may have written through thread_elements() (its copy then holds
//    only that lane's pair correctly), gathers the tile: each lane writes
//    its pair to threadgroup memory, a SIMD-group barrier, and the tile is
//    loaded back whole (simdgroup_load), after a barrier that keeps the
//    previous gather's reads before these writes.
// Reading a lane's own elements needs nothing: the lane's copy holds them.
// Returns false (with errors) for a form it cannot gather.
bool lower_thread_elements(ir::Kernel& k, DiagEngine& diags);

}  // namespace mslport::passes
