// What a loop leaves unchanged: shared by the raise steps that move work
// out of loops (invariant_division) or look ahead in them (prefetch_strided_loads).
#pragma once

#include <set>

#include "ir/ir.h"

namespace mslport::back::opencl {

const ir::Expr& strip_casts(const ir::Expr& e);
bool is_loop(const ir::Stmt& s);

// Variables and parameters a statement tree declares or writes (directly,
// or through an address it takes).
struct Writes {
  std::set<int> vars, params;
};
void note_writes(const ir::Stmt& loop, Writes& w);

// A kernel argument pointing to __constant memory (always bound, and
// nothing writes what it points to).
bool constant_argument(const ir::Expr& p);

// `e` has the same value everywhere in a loop that writes `w`, and can be
// evaluated before the loop without effects or traps.
bool invariant(const ir::Expr& e, const Writes& w);

}  // namespace mslport::back::opencl
