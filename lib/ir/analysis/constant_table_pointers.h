// Which pointers point into program-scope constant arrays ("tables":
// `constant float kGrid[256] = {...};` and `constant float* p = kGrid + i;`,
// llama.cpp's lookup grids), and where such a pointer is used in a way only
// a pointer to other memory allows.
//
// A target whose address spaces separate the two (OpenCL C 1.2: program-scope
// __constant arrays, but kernel constant buffers passed as __global) types
// each pointer variable by what it is set to. The analysis learns that by a
// fixed-point walk: `q = p + 1` makes q a table pointer once p is one.
#pragma once

#include <vector>

#include "ir/ir.h"

namespace mslport::ir::analysis {

struct ConstantTablePointers {
  // Per Kernel::vars: a pointer variable set (somewhere) to a table pointer,
  // and one set to any other pointer. Both at once is a conflict.
  std::vector<char> into_table, elsewhere;

  // The pointer (or array, decaying) value of `e` points into a table: the
  // table itself, a row of it, a table pointer variable, or arithmetic,
  // casts, ?: and assignments over those.
  bool points_into_table(const Expr& e) const;
  // The lvalue `e` lives in a table: `table[i]`, `table[i].row`, `p[2]`.
  bool lvalue_in_table(const Expr& e) const;
};

ConstantTablePointers analyze_constant_table_pointers(const Kernel& k);

// The variable, parameter or constant the lvalue `e` lives in (through
// subscripts, members, swizzles and `*`).
const Expr* lvalue_root(const Expr& e);

// Variables set both into a table and elsewhere.
std::vector<int> conflicting_table_pointers(const Kernel& k, const ConstantTablePointers& t);

// The table pointer operands used where a pointer of the table's kind cannot
// go: passed to a call, compared with (or subtracted from) a pointer to
// other memory, chosen by ?: against one, stored in a variable of the other
// kind, or its address taken.
std::vector<const Expr*> table_pointer_misuses(const Kernel& k, const ConstantTablePointers& t);

}  // namespace mslport::ir::analysis
