// Small IR construction and rewriting helpers shared by the raise steps.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport::back::opencl {

// Constructors every backend uses live in ir (ir.h).
using ir::make_address_of_element;
using ir::make_call;
using ir::make_cast;
using ir::make_index;

ir::ExprPtr make_swizzle(ir::ExprPtr base, std::vector<int> lanes);
ir::ExprPtr make_float(double v, ir::SourceLoc loc = {});
ir::ExprPtr make_conditional(ir::ExprPtr cond, ir::ExprPtr then_value, ir::ExprPtr else_value);

// Post-order rewrite of every expression in the kernel body: children first,
// then `f` may return a replacement for the node (or the node itself).
using ExprRewrite = std::function<ir::ExprPtr(ir::ExprPtr)>;
void rewrite_expr(ir::ExprPtr& slot, const ExprRewrite& f);
void rewrite_kernel_exprs(ir::Kernel& k, const ExprRewrite& f);
// Applies `f` to every expression slot directly held by statements of the
// tree (Decl init, ExprStmt, conditions, for step), letting `f` recurse.
void for_each_stmt_expr_slot(ir::Stmt& s, const std::function<void(ir::ExprPtr&)>& f);

// The struct index an access `base.field` / `base->field` goes through.
int member_struct_index(const ir::Expr& member);

}  // namespace mslport::back::opencl
