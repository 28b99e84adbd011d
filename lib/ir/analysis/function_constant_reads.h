// Which function constants the host sets (GlobalConst::host_set) a kernel
// reads: directly, through a program-scope constant computed from one
// (`constant int rows = FC_nsg * 4;`), or in a helper function it calls.
// The front end gives the kernel a FunctionConstant parameter for each;
// passes::bind_function_constants turns the reads into parameter reads.
#pragma once

#include <set>
#include <vector>

#include "ir/ir.h"

namespace mslport::ir::analysis {

// Does constant `c` (an index into m.constants) depend on one the host sets?
// True for a host-set constant itself.
bool depends_on_host_set_constant(const Module& m, int c);

// Every program-scope constant (index into m.constants) `k` reads, in its
// body, a helper it calls, or the initializer of one it reads.
std::set<int> constants_read(const Module& m, const Kernel& k);

// The host-set constants (indices into m.constants) that `k` reads, in
// function-constant index order.
std::vector<int> host_set_constants_read(const Module& m, const Kernel& k);

}  // namespace mslport::ir::analysis
