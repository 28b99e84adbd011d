// Small IR construction and rewriting helpers shared by the raise steps.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace mslport::back::opencl {

ir::ExprPtr make_call(std::string callee, ir::Type type, std::vector<ir::ExprPtr> args, ir::SourceLoc loc = {});
ir::ExprPtr make_cast(ir::Type type, ir::ExprPtr e);
ir::ExprPtr make_swizzle(ir::ExprPtr base, std::vector<int> lanes);
ir::ExprPtr make_float(double v, ir::SourceLoc loc = {});
ir::ExprPtr make_conditional(ir::ExprPtr cond, ir::ExprPtr then_value, ir::ExprPtr else_value);
// base[index] (base a pointer or vector) and &base[index] (base a pointer).
ir::ExprPtr make_index(ir::ExprPtr base, ir::ExprPtr index, ir::Type element);
ir::ExprPtr make_address_of_element(ir::ExprPtr pointer, ir::ExprPtr index, ir::Type element);

// Post-order rewrite of every expression in the kernel body: children first,
// then `f` may return a replacement for the node (or the node itself).
using ExprRewrite = std::function<ir::ExprPtr(ir::ExprPtr)>;
void rewrite_expr(ir::ExprPtr& slot, const ExprRewrite& f);
void rewrite_kernel_exprs(ir::Kernel& k, const ExprRewrite& f);
// Applies `f` to every expression slot directly held by statements of the
// tree (Decl init, ExprStmt, conditions, for step), letting `f` recurse.
void for_each_stmt_expr_slot(ir::Stmt& s, const std::function<void(ir::ExprPtr&)>& f);

// True when evaluating `e` twice is the same as evaluating it once.
bool is_pure(const ir::Expr& e);
// The struct index an access `base.field` / `base->field` goes through.
int member_struct_index(const ir::Expr& member);

}  // namespace mslport::back::opencl
