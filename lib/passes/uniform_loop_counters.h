// Step: a loop around a barrier or SIMD-group function whose bounds both
// move with the thread,
//     for (uint t = A + d; t < B + d; t += C) body      (d varies; A, B, C do not)
// runs the same number of times in every thread (llama.cpp's rwkv_wkv
// walks its tokens so, with d the thread's index), but its condition reads
// a per-thread value, which the lowering must take as divergent, refusing
// the barrier. It becomes a loop on a uniform counter:
//     for (uint u = A; u < B; u += C) { uint t = u + d; body }
// The bounds may be read through constants declared with them (`const uint
// end = B + tid;`). The loop must step its variable only in its increment,
// by a uniform amount. This assumes the bounds do not wrap around, where
// `t < B + d` and `u < B` would disagree.
//
// Before hoist_collectives and the lowering of returns and masks; needs
// normalize_blocks (the body is a Block).
#pragma once

#include "ir/ir.h"

namespace mslport::passes {

void uniform_loop_counters(ir::Kernel& k);

}  // namespace mslport::passes
