// Inlines the user's helper functions into the kernels that call them.
//
// The front end builds every helper function (template instances included)
// once, as an ir::Function, and a call to it as a UserCall expression. This
// pass replaces each call by the function's body, so the execution-model
// passes and the backends only ever see kernels: a barrier or a SIMD-group
// function inside a helper is then handled exactly like one written in the
// kernel (and a barrier reached from divergent code is diagnosed the same way).
//
//   float r = f(a, b) + 1.0f;   =>   float f_result;
//                                    {  // inlined: f
//                                      float x = a;      (a copy only where
//                                      ...                f writes its copy)
//                                      f_result = ...;
//                                    }
//                                    float r = f_result + 1.0f;
//
// Semantics kept:
//  * arguments are evaluated once, before the body, in order; a by-value
//    parameter the function never writes and whose argument is a plain name
//    or literal is substituted directly (readable code, same value);
//  * a reference parameter (`thread T&` out-parameters, `device T&`, ...)
//    becomes the argument lvalue itself, or a pointer to it when the lvalue
//    could change while the body runs (side effects, or an index that
//    another reference argument of the same call may write);
//  * `return` in tail position becomes an assignment to the result; any
//    other `return` sets a flag that skips the rest of the body and leaves
//    the loops around it;
//  * calls under `&&`, `||` and `?:` are evaluated only when the operator
//    evaluates that operand (the expression becomes an if statement);
//  * calls in loop conditions are evaluated before every iteration, and in a
//    for-loop's increment after every iteration.
//
// Requires: the module verifies. Afterwards no kernel contains a UserCall;
// Module::functions is left as it was (the IR printer still shows them).
#pragma once

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace mslport::passes {

// Returns false (with a diagnostic at the call) for a call the pass cannot
// place: a call with statements in the increment of a loop whose body uses
// `continue`, or calls nested deeper than kMaxInlineDepth (recursion).
bool inline_functions(ir::Module& m, DiagEngine& diags);
// The same for one kernel of `m`.
bool inline_functions(const ir::Module& m, ir::Kernel& k, DiagEngine& diags);

constexpr int kMaxInlineDepth = 64;

}  // namespace mslport::passes
