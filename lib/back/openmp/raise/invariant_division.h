// Unsigned 32-bit `/` and `%` by a divisor that is the same for the whole
// dispatch, in code that runs per work-item, take a divisor prepared once
// per threadgroup (mslport::udiv_prepare in openmp_rt.h: Granlund &
// Montgomery's multiply-high) instead of mslport::udiv's per-lane
// reciprocal and correction. The OpenCL backend's step of the same name
// (back/opencl/raise/invariant_division.cc) does this per loop.
#pragma once

#include "ir/ir.h"

namespace mslport::back::openmp {

// Calls the pass leaves in the IR; the C++ printer spells them
// mslport::udiv_prepare(d), mslport::udiv(n, r) and mslport::umod(n, r).
constexpr const char* kUdivPrepare = "__mslport_udiv_prepare";
constexpr const char* kUdivPrepared = "__mslport_udiv_prepared";
constexpr const char* kUmodPrepared = "__mslport_umod_prepared";

// Runs on the kernel as the front end built it (before
// passes::lower_execution_model). A divisor qualifies when it is not a
// literal, is uniform across the threadgroup, and is built only from
// literals, scalar `constant` parameters, threadgroup-uniform builtins and
// variables declared once at the top of the kernel body and never written
// again (with such initialisers), without calls, memory reads or divisions
// other than by non-zero literals: evaluating it early is then the same
// value, free of side effects and traps. Its prepared form is declared
// right after the last of those declarations. Divisions whose numerator is
// uniform too stay as they are (they run once per threadgroup).
void prepare_invariant_divisors(ir::Kernel& k);

}  // namespace mslport::back::openmp
