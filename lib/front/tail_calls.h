// A helper function that calls itself last (a tail call) becomes a loop
// (tail_calls.cc says why and how).
#pragma once

#include "front/front_context.h"
#include "ir/ir.h"

namespace mslport::front {

// build_function's answer for a call to the function it is building: the
// call is built as a UserCall with this index, which
// self_tail_calls_to_loop replaces.
constexpr int kSelfCall = -2;

// Rewrites f's body, built with its calls to itself as UserCalls of index
// kSelfCall, into a loop in which each tail call assigns the parameters and
// starts the body again. Reports any other call to itself (false).
bool self_tail_calls_to_loop(FrontContext& ctx, ir::Function& f);

}  // namespace mslport::front
