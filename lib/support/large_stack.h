// Runs work on a thread with a large stack. The translator walks its input
// recursively (libclang cursors, then the IR tree in every pass and
// backend), so a deeply nested input needs stack in proportion to its
// depth; the front end bounds the depth (ir::kMaxNestingDepth) and the
// translation runs on a stack big enough for that bound in every phase.
// The stack is reserved address space, touched (and so committed) only as
// deep as the work goes.
#pragma once

#include <cstddef>
#include <functional>

namespace mslport {

// Enough for a translation of ir::kMaxNestingDepth levels through the front
// end, the passes and both backends, with room to spare for sanitizer
// builds, whose frames are several times larger. Measured (pages touched)
// at 9,990 levels: a sum 7.7 MB, a ?: chain 7.0 MB, 4,990 nested for loops
// 9.7 MB, a 5,000-long else-if chain 7.6 MB (tests/lit/diagnostics/
// nesting_depth.test translates such input).
constexpr size_t kTranslationStackBytes = size_t{256} << 20;

// Runs `fn` on a new thread with `stack_bytes` of stack and waits for it.
// An exception `fn` throws is rethrown here. If no such thread can be made
// (address space exhausted), `fn` runs on the calling thread.
void run_with_stack(size_t stack_bytes, const std::function<void()>& fn);

}  // namespace mslport
