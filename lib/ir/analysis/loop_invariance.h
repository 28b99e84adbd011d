// What a loop leaves unchanged: which variables and parameters its body
// writes, and whether an expression has the same value on every iteration
// and can be evaluated before the loop. Asked by the transforms that move
// work out of loops (the OpenCL backend's invariant_division) or look ahead
// in them (prefetch_strided_loads, the OpenMP backend's loop_schedule_points).
#pragma once

#include <set>

#include "ir/ir.h"

namespace mslport::ir::analysis {

const Expr& strip_casts(const Expr& e);
bool is_loop(const Stmt& s);

// Variables and parameters a statement tree declares or writes (directly,
// or through an address it takes).
struct Writes {
  std::set<int> vars, params;
};
void note_writes(const Stmt& loop, Writes& w);
Writes writes_of(const Stmt& loop);

// `e` reads a variable or parameter in `w`: its value may change from one
// iteration of the loop to the next.
bool reads_written(const Expr& e, const Writes& w);

// A kernel argument pointing to __constant memory (always bound, and
// nothing writes what it points to).
bool constant_argument(const Expr& p);

// `e` has the same value everywhere in a loop that writes `w`, and can be
// evaluated before the loop without effects or traps.
bool invariant(const Expr& e, const Writes& w);

}  // namespace mslport::ir::analysis
