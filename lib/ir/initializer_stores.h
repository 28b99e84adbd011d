#pragma once
#include <vector>

#include "ir/ir.h"
namespace mslport::ir {
// The stores that give `target` the value of the brace initialiser `init`
// (an InitList of an array or struct type), where the list is not a
// declaration's initialiser: predicate_sync declares the variables of a
// divergent block before it, and a constructor gives a field its default
// member initializer (`uchar b[2] = {1, 2};`) by assignment. C has no
// assignment of `{...}` to an array,
// so each scalar, vector or struct element is assigned on its own:
//   float a[4] = {x, y};   =>   a[0] = x; a[1] = y;
//                               for (uint i = 2u; i < 4u; ++i) a[i] = 0.0f;
// Elements the list leaves out are zero, as in C. `target` is cloned for
// each store, so it must be free of side effects (a variable reference, or
// members of one).
std::vector<ir::StmtPtr> initializer_stores(const ir::Module& m, ir::Kernel& k, const ir::Expr& target,
                                            ir::ExprPtr init);
}  // namespace mslport::ir
