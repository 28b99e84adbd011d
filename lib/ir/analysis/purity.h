// What evaluating an expression does besides computing its value. One
// analysis for every client; each asks the question it needs:
//  * has_side_effects: evaluating it changes something (an inlined helper's
//    argument used more or less than once would change the program);
//  * is_repeatable: evaluating it twice is the same as once (a rewrite that
//    repeats an operand, OpenCL's `v[i] = x` as a per-lane select);
//  * is_arithmetic: not even a memory read, so it can be evaluated where the
//    source would not have read anything (a prefetch address computed for
//    the first work-item of a row, a threadgroup's read address).
#pragma once

#include "ir/ir.h"

namespace mslport::ir::analysis {

struct Effects {
  // An assignment, compound assignment, ++ or -- (to a variable or through
  // a pointer).
  bool writes = false;
  // The same through a pointer: device or threadgroup memory changes.
  bool writes_memory = false;
  // `&x` of a variable: later writes may reach it through the pointer.
  bool takes_address = false;
  // A subscript (of a pointer, array or vector), `*p` or `p->f`: the value
  // depends on what is stored, and a bad pointer faults.
  bool reads_memory = false;
  // A call (a Metal function or an intrinsic a pass inserted).
  bool calls = false;
  // An atomic function: it reads and writes memory other threads may update
  // at the same time (writes and writes_memory are set too).
  bool writes_memory_atomically = false;
  // A SIMD-group function or simdgroup_matrix operation: it exchanges
  // values between lanes, so evaluating it is a step of the whole group.
  bool synchronises = false;
};

Effects effects_of(const Expr& e);
// Of every expression a statement tree holds.
Effects effects_of(const Stmt& s);

bool has_side_effects(const Expr& e);
bool is_repeatable(const Expr& e);
bool is_arithmetic(const Expr& e);

}  // namespace mslport::ir::analysis
