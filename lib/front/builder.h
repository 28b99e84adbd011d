// Builds the IR of one function body (a kernel, or the initialiser of a
// program-scope constant when `kernel` is null). Expressions are in
// build_expr.cc, statements in build_stmt.cc, parameters in build_kernel.cc.
//
// Error handling: a construct that cannot be translated is reported once
// through FrontContext and the builder returns nullptr for it; parents
// propagate nullptr silently, so one problem gives one diagnostic.
#pragma once

#include <clang-c/Index.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "front/front_context.h"

namespace mslport::front {

class FunctionBuilder {
 public:
  // `kernel` receives the parameters, variables and body: a kernel's, or a
  // helper function's (Function::def, with `function` set).
  FunctionBuilder(FrontContext& ctx, ir::Kernel* kernel, const ir::Function* function = nullptr)
      : ctx_(ctx), k_(kernel), function_(function) {}

  // Kernel parameters (build_kernel.cc). Returns false on error.
  bool build_params(CXCursor fn);
  void register_param(CXCursor parm, int index) { params_[usr_of(parm)] = index; }

  ir::ExprPtr expr(CXCursor c);
  ir::StmtPtr stmt(CXCursor c);
  // Appends the statements for `c` (a declaration statement may yield none
  // or several).
  void stmts_into(CXCursor c, std::vector<ir::StmtPtr>& out);

  // Evaluates a constant expression (enum constants, mem_flags, sizeof).
  bool evaluate_int(CXCursor c, int64_t* value);

 private:
  // build_expr.cc
  ir::ExprPtr int_literal(CXCursor c);
  ir::ExprPtr float_literal(CXCursor c);
  ir::ExprPtr decl_ref(CXCursor c);
  ir::ExprPtr unary(CXCursor c);
  ir::ExprPtr binary(CXCursor c);
  ir::ExprPtr conditional(CXCursor c);
  ir::ExprPtr subscript(CXCursor c);
  std::optional<CXCursor> boxed_value(CXCursor member_ref);
  ir::ExprPtr member(CXCursor c);
  ir::ExprPtr call(CXCursor c);
  ir::ExprPtr inline_call(CXCursor c, CXCursor fn);
  // A call to a helper function that is not a single `return`: a UserCall
  // (build_function.cc).
  ir::ExprPtr user_call(CXCursor c, CXCursor fn);
  // `obj.f(args)`, `a + b` with a member operator, `S::f(args)`: a UserCall
  // whose first argument is the object (build_function.cc).
  ir::ExprPtr method_call(CXCursor c, CXCursor fn);
  ir::ExprPtr inline_reference_method(CXCursor c, CXCursor def, ir::ExprPtr object, int first_arg);
  // The value of a member call's object expression (member_call_object):
  // `obj`, or `*p` for `p->f()`.
  ir::ExprPtr object_value(CXCursor obj, const ir::SourceLoc& loc);
  // `S s(args)`, `S(args)`, `S s;` with a constructor or default member
  // initializers: a call of the constructor as a function returning the
  // struct (build_function.cc).
  ir::ExprPtr constructor_call(CXCursor c, CXCursor ctor);
  // The object a member function works on (`*this`), or null with an error.
  ir::ExprPtr self_object(CXCursor at);
  ir::ExprPtr simd_matrix_call(CXCursor c, const std::string& name, const ir::Type& t);
  ir::ExprPtr simd_matrix_diagonal(CXCursor c, CXCursor value);
  ir::ExprPtr thread_elements(CXCursor c);
  ir::ExprPtr atomic_call(CXCursor c, ir::ExprPtr call);
  ir::ExprPtr explicit_cast(CXCursor c);
  ir::ExprPtr reinterpret_cast_expr(CXCursor c);
  ir::ExprPtr vote_member(CXCursor c, CXCursor fn, const std::vector<CXCursor>& args);
  bool casts_to_reference(CXCursor c, bool* known);
  ir::ExprPtr compound_literal(CXCursor c);
  ir::ExprPtr init_list(CXCursor c);
  ir::ExprPtr braced_list(const ir::Type& t, std::vector<ir::ExprPtr>& items, size_t* pos, const ir::SourceLoc& loc);
  bool is_designated(CXCursor x);
  ir::ExprPtr designated_init_list(CXCursor c, const ir::Type& t, const std::vector<CXCursor>& kids);
  ir::ExprPtr unexposed(CXCursor c);
  ir::ExprPtr vector_construct(CXCursor c, const ir::Type& t, const std::vector<CXCursor>& elems);
  // The shim's packed_float3 and kin (a struct holding T[N]).
  bool is_packed_vector(const ir::Type& t) const;
  ir::ExprPtr swizzle(CXCursor c, CXCursor base_cursor, const std::string& accessor);
  // The `xy` of `v.xy` when `c` is a vector member access on `sub`.
  bool vector_accessor(CXCursor c, CXCursor sub, std::string* name);
  // The converted type of an expression cursor; reports and returns nullopt
  // when it has no IR form.
  std::optional<ir::Type> type_of(CXCursor c);
  // Wraps `e` in a Cast to `t` unless it already has that type.
  ir::ExprPtr convert(ir::ExprPtr e, const ir::Type& t, const ir::SourceLoc& loc);
  // An array of `t` whose every element is a copy of the element value `e`
  // (the construction clang repeats per element); null, reported at `at`,
  // past kMaxConstructedElements.
  ir::ExprPtr each_element(ir::ExprPtr e, const ir::Type& t, CXCursor at);

  // bool_vectors.cc: Metal's bool2/3/4, which the shim declares as a struct
  // with bodiless members (metal_stdlib says why).
  // A call of one of the struct's constructors, its operator[] or a logical
  // or equality operator on bool vectors; null (and no error) when `fn` is
  // none of those.
  ir::ExprPtr bool_vector_call(CXCursor c, CXCursor fn, bool* handled);
  // The lanes of `e` as bools (nonzero is true): a bool vector of `lanes`
  // lanes (a scalar is widened to them), or a bool when `lanes` is 1.
  ir::ExprPtr as_bools(ir::ExprPtr e, int lanes, const ir::SourceLoc& loc);
  // Metal types a vector comparison, `!`, `&&` and `||` as a bool vector,
  // where clang's OpenCL mode gives an int vector: the type to give the
  // operator with these operands (`clang_type` when neither is a vector).
  static ir::Type logical_result(const ir::Type& clang_type, const ir::Expr& a, const ir::Expr* b);

  // build_stmt.cc
  void decl_stmt(CXCursor c, std::vector<ir::StmtPtr>& out);
  // One variable of a declaration statement.
  void var_decl(CXCursor v, std::vector<ir::StmtPtr>& out);
  ir::StmtPtr block(CXCursor c);
  ir::StmtPtr if_stmt(CXCursor c);
  ir::StmtPtr for_stmt(CXCursor c);
  ir::StmtPtr while_stmt(CXCursor c);
  ir::StmtPtr do_stmt(CXCursor c);
  ir::StmtPtr barrier(CXCursor call, bool simdgroup);
  void switch_stmt(CXCursor c, std::vector<ir::StmtPtr>& out);
  // A statement used as a loop/if body: always a Block.
  ir::StmtPtr body(CXCursor c);
  // The value of a constant expression of scalar type as a literal, or null
  // when clang cannot evaluate it.
  ir::ExprPtr constant_value(CXCursor c);
  // The value of a condition that reads function constants (and nothing
  // that varies), or nullopt.
  std::optional<bool> specialized_condition(CXCursor cond);
  // `__mslport_threadgroup_storage<T>()`, possibly wrapped.
  bool is_threadgroup_storage(CXCursor init);

  // The function a call to build_function's `index` names: the one being
  // built for kSelfCall (tail_calls.h).
  const ir::Function& callee(int index) const;

  // range_for.cc: `for (T x : range)` as a counted loop over the range's
  // elements.
  void range_for(CXCursor c, std::vector<ir::StmtPtr>& out);
  // The element the loop is at, for `*__begin` in a loop variable's
  // initializer (`operand` is the `__begin`); null for any other operand.
  ir::ExprPtr range_element(CXCursor operand);
  // Make `e` name the same object, or have the same value, on every
  // iteration, as C++ evaluates the range once: what the body could change
  // is evaluated into a constant before the loop (`before`), a variable
  // named after `base` (base_index, base_pointer). False, with nothing
  // reported, for an object of a form not handled. A reference bound to an
  // array uses the same (var_decl).
  bool stable_object(ir::ExprPtr& e, std::vector<ir::StmtPtr>& before, const std::string& base = "range");
  void stable_value(ir::ExprPtr& e, std::vector<ir::StmtPtr>& before, const std::string& base = "range");

  FrontContext& ctx_;
  ir::Kernel* k_;
  const ir::Function* function_;  // set while building a helper function
 public:
  // In a member function: `*this` (the `self` reference parameter); in a
  // constructor: the object being built (a local variable).
  ir::ExprPtr self_;

 private:
  std::map<std::string, int> params_;  // ParmDecl USR -> Kernel::params
  // Quad-group builtins: parameter (holding thread_index_in_threadgroup)
  // -> the operation by 4 its uses apply.
  std::map<int, ir::BinaryOp> quad_params_;
  // Builtin parameters declared ushort(N): materialised as uint(N), read
  // through a conversion to the declared type.
  std::map<int, ir::Type> narrow_params_;
  // `device T& x` parameters: buffers of one T, read and written as `*x`.
  std::set<int> reference_params_;
  // Kernel parameters that do not exist with these function constants.
  std::map<std::string, std::string> absent_params_;
  std::map<std::string, int> vars_;  // VarDecl USR -> Kernel::vars
  // Reference variables (`T& x = obj;`): VarDecl USR -> the pointer variable.
  std::map<std::string, int> reference_vars_;
  // Reference variables whose binding failed (reported once, at it).
  std::set<std::string> unbound_refs_;
  std::map<std::string, int> tg_allocs_;  // VarDecl USR -> Kernel::tg_allocs
  // Range-based for (range_for.cc): the loop's `__begin` VarDecl USR -> the
  // element its counter is at, while the loop variable is built; a
  // reference loop variable's VarDecl USR -> that element, which each use
  // names (as does a reference bound to an array, `thread float (&r)[3] =
  // grid[k];`: its VarDecl USR -> the array it names, var_decl); the
  // counters, which no statement of the user's can change.
  std::map<std::string, ir::ExprPtr> range_elements_;
  std::map<std::string, ir::ExprPtr> element_refs_;
  std::set<int> range_counters_;
  // Helper-function inlining: ParmDecl USR -> argument expression, one map
  // per active inlined call; and the functions being inlined (recursion).
  std::vector<std::map<std::string, const ir::Expr*>> substitutions_;
  std::vector<std::string> inline_stack_;

  // How deep the expression or statement being built is nested; past
  // ir::kMaxNestingDepth the construct is reported once and not built.
  friend class NestingGuard;
  int depth_ = 0;
  bool depth_reported_ = false;
};

// Counts one level of nesting for as long as it lives (build_expr.cc).
class NestingGuard {
 public:
  NestingGuard(FunctionBuilder& b, CXCursor c);
  ~NestingGuard() { --b_.depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return too_deep_; }

 private:
  FunctionBuilder& b_;
  bool too_deep_ = false;
};

// Builds the kernel defined by `fn` (a FunctionDecl carrying the shim's
// metal_kernel annotation) under `name` (its host name) and appends it to
// ctx.module (build_kernel.cc). `where` locates it for diagnostics (the
// explicit instantiation, for a template instance).
void build_kernel(FrontContext& ctx, CXCursor fn, const std::string& name, const ir::SourceLoc& where);

// Builds the helper function defined by `def` once (template instances are
// distinct definitions) and returns its index in Module::functions, or -1
// after reporting at `call` why it cannot be built (build_function.cc).
int build_function(FrontContext& ctx, CXCursor def, CXCursor call);

// A constructor of the user's with a body or member initializers, or any
// constructor of a struct with default member initializers.
bool constructor_does_work(const FrontContext& ctx, CXCursor ctor);
// The field indices from struct `si` to its field `name`: a field of its
// own, or one of an anonymous member's (C++ names those as the enclosing
// struct's, so the name is unique across them). False when there is none
// (build_expr.cc).
bool field_path(const ir::Module& m, int si, const std::string& name, std::vector<int>* path);
// The Member expressions that reach the field `path` leads to (field_path)
// from `base`, a struct or a pointer to one (the first step then `->`).
ir::ExprPtr member_chain(const ir::Module& m, ir::ExprPtr base, const std::vector<int>& path, const ir::SourceLoc& loc);
// True when `fn` is a Metal kernel (declared with `kernel`).
bool is_kernel(CXCursor fn);
// The object expression of a member call `obj.f()` / `p->f()`: the base of
// the callee's MemberRefExpr; a null cursor when there is none (`f()` on
// *this inside another member function).
CXCursor member_call_object(CXCursor call);

}  // namespace mslport::front
