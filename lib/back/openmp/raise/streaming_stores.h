// Stores of a work-item loop that the C++ backend writes past the cache.
//
// A kernel writing a fresh output (`out[tid] = a[tid] + b[tid]`) makes the
// CPU read every output line before writing it (write-allocate): four
// streams of traffic for three of data. Non-temporal stores skip that read.
// The compilers do not vectorise them from per-element code (LLVM wants each
// vector store aligned to its width), so a work-item loop that qualifies
// gets a second copy, taken when the launch writes more than the cache can
// usefully keep (mslport::streams_past_cache in openmp_rt.h): the loop
// writes the values into a row buffer on the stack and mslport::stream_row
// writes the row out with 32-byte non-temporal stores.
#pragma once

#include <set>
#include <vector>

#include "back/openmp/raise/storage.h"
#include "ir/ir.h"

namespace mslport::back::openmp {

// `P[E] = V;` at the top level of a work-item loop's statements, where P is
// a write-only buffer with scalar elements and E steps by exactly one
// element from one work-item of a row (x) to the next.
struct StreamedStore {
  const ir::Stmt* stmt = nullptr;
  int buffer = -1;  // Kernel::params index of P
  // The loop's declarations E reads (directly or through each other), in
  // the loop's order: printed with lx = 0, they give the row's first address.
  std::vector<const ir::Stmt*> index_defs;
};

// Device buffers the kernel only ever stores to (`P[i] = v;`, never read,
// never compound-assigned, never passed on): no work-item can read a value
// before the stores that a staged row delays have landed.
std::set<int> write_only_buffers(const ir::Kernel& k);

// The stores of one work-item loop (its statements, in order) that can be
// staged per row and streamed. Looks into `if (known_true_var)` blocks,
// which the emitter prints as plain blocks (pass -1 for none). At most one
// store per buffer; a buffer stored to twice in the loop is left out.
std::vector<StreamedStore> find_streamed_stores(const ir::Kernel& k, const StoragePlan& plan,
                                                const std::set<int>& write_only,
                                                const std::vector<const ir::Stmt*>& loop, int known_true_var);

}  // namespace mslport::back::openmp
