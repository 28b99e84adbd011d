// Step: unsigned 32-bit `/` and `%` inside a loop whose divisor stays the
// same through the loop become prelude calls that take a reciprocal worked
// out once, before the loop (mslport_udiv_prepare / mslport_udiv /
// mslport_umod). A division by a register costs NVIDIA GPUs a dozen
// instructions, three of them quarter-rate conversions, and CPUs a
// scalarised divide per lane; the prepared form is a multiply-high, a
// subtract and two shifts. Measured on the H100: dequant_matvec_8bit_v3
// (`col / (group_size / 4)` per 4 weight bytes) 1247 -> 1358 GB/s.
//
// Divisors that are literals are left to the OpenCL compiler, which does
// the same thing itself. The divisor is evaluated earlier than in the
// source, so it must be free of side effects and of anything that could
// trap there (a division, unless by a non-zero literal) and read only
// variables the loop does not write, or memory nothing writes (__constant).
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

using ir::Expr;
using ir::Stmt;

const Expr& strip_casts(const Expr& e) { return e.kind == Expr::Kind::Cast ? strip_casts(*e.args[0]) : e; }

bool is_loop(const Stmt& s) {
  return s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While || s.kind == Stmt::Kind::DoWhile;
}

// Variables and parameters a statement tree declares or writes.
struct Writes {
  std::set<int> vars, params;
};

void note_writes(const Stmt& loop, Writes& w) {
  for (int v : ir::vars_written(loop)) w.vars.insert(v);
  ir::walk_stmt_exprs(loop, [&](const Expr& e) {
    const bool writes = e.kind == Expr::Kind::Assign ||
                        (e.kind == Expr::Kind::Unary &&
                         (e.unary_op == ir::UnaryOp::PreInc || e.unary_op == ir::UnaryOp::PreDec ||
                          e.unary_op == ir::UnaryOp::PostInc || e.unary_op == ir::UnaryOp::PostDec));
    if (writes && e.args[0]->kind == Expr::Kind::ParamRef) w.params.insert(e.args[0]->index);
    // Taking an address lets the loop write the variable through a pointer.
    if (e.kind == Expr::Kind::Unary && e.unary_op == ir::UnaryOp::AddrOf) {
      const Expr* x = e.args[0].get();
      while (x->kind == Expr::Kind::Index || x->kind == Expr::Kind::Member || x->kind == Expr::Kind::Swizzle)
        x = x->args[0].get();
      if (x->kind == Expr::Kind::VarRef) w.vars.insert(x->index);
      if (x->kind == Expr::Kind::ParamRef) w.params.insert(x->index);
    }
    return true;
  });
}

// A kernel argument pointing to __constant memory (always bound, and
// nothing writes what it points to).
bool constant_argument(const Expr& p) {
  const Expr& x = strip_casts(p);
  return x.kind == Expr::Kind::ParamRef && x.type.is_pointer() && x.type.space == ir::AddressSpace::Constant;
}

// `e` has the same value everywhere in a loop that writes `w`, and can be
// evaluated before the loop without effects or traps.
bool invariant(const Expr& e, const Writes& w) {
  using K = Expr::Kind;
  auto all_args = [&] {
    for (auto& a : e.args)
      if (!invariant(*a, w)) return false;
    return true;
  };
  switch (e.kind) {
    case K::IntLit: case K::BoolLit: case K::FloatLit: case K::GlobalConstRef: return true;
    case K::VarRef: return !w.vars.count(e.index);
    case K::ParamRef: return !w.params.count(e.index);
    case K::Cast: case K::Swizzle: return all_args();
    case K::Unary:
      switch (e.unary_op) {
        case ir::UnaryOp::Neg: case ir::UnaryOp::Plus: case ir::UnaryOp::Not: case ir::UnaryOp::BitNot:
          return all_args();
        case ir::UnaryOp::Deref: return constant_argument(*e.args[0]) && all_args();
        default: return false;
      }
    case K::Member:
      return (!e.arrow || constant_argument(*e.args[0])) && all_args();
    case K::Binary:
      switch (e.binary_op) {
        case ir::BinaryOp::Comma: return false;
        case ir::BinaryOp::Div: case ir::BinaryOp::Rem: {
          const Expr& d = strip_casts(*e.args[1]);
          if (d.kind != K::IntLit || d.int_value == 0) return false;
          return all_args();
        }
        default: return all_args();
      }
    case K::Conditional: return all_args();
    default: return false;  // calls, loads from memory a kernel may write, assignments, ...
  }
}

bool same_expr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.type != b.type || a.index != b.index || a.int_value != b.int_value ||
      a.float_value != b.float_value || a.spelling != b.spelling || a.arrow != b.arrow ||
      a.unary_op != b.unary_op || a.binary_op != b.binary_op || a.components != b.components ||
      a.args.size() != b.args.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!same_expr(*a.args[i], *b.args[i])) return false;
  return true;
}

// A short, readable name for the prepared divisor's local: after the
// first variable or argument the divisor reads.
std::string divisor_name(const ir::Kernel& k, const Expr& d) {
  std::string name = "mslport_div";
  ir::walk_exprs(d, [&](const Expr& x) {
    if (name != "mslport_div") return false;
    if (x.kind == Expr::Kind::VarRef) name += "_" + k.vars.at(x.index).name;
    if (x.kind == Expr::Kind::ParamRef) name += "_" + k.params.at(x.index).name;
    return name == "mslport_div";
  });
  return name;
}

struct Hoister {
  RaiseContext& ctx;
  ir::Kernel& k;

  // Rewrites the divisions in `loop` whose divisor `loop` does not change;
  // returns the declarations of their prepared divisors, to go before it.
  std::vector<ir::StmtPtr> hoist_from(Stmt& loop) {
    Writes w;
    note_writes(loop, w);
    std::vector<ir::StmtPtr> decls;
    std::vector<std::pair<const Expr*, int>> prepared;  // divisor (in a decl) -> var
    auto prepared_var = [&](const Expr& d) {
      for (auto& [e, v] : prepared)
        if (same_expr(*e, d)) return v;
      const ir::Type u4 = ir::Type::vector_of(ir::ScalarKind::UInt, 4);
      int v = ir::add_var(k, divisor_name(k, d), u4, d.loc, /*is_const=*/true);
      std::vector<ir::ExprPtr> args;
      args.push_back(d.clone());
      decls.push_back(ir::make_decl(v, make_call("mslport_udiv_prepare", u4, std::move(args), d.loc), loop.loc));
      prepared.emplace_back(decls.back()->expr->args[0].get(), v);
      ctx.prelude.require("mslport_udiv_prepare");
      return v;
    };
    auto rewrite = [&](ir::ExprPtr e) -> ir::ExprPtr {
      if (e->kind != Expr::Kind::Binary || (e->binary_op != ir::BinaryOp::Div && e->binary_op != ir::BinaryOp::Rem))
        return e;
      constexpr ir::ScalarKind u32 = ir::ScalarKind::UInt;
      if (!e->type.is_scalar(u32) || !e->args[0]->type.is_scalar(u32) || !e->args[1]->type.is_scalar(u32)) return e;
      if (strip_casts(*e->args[1]).kind == Expr::Kind::IntLit || !invariant(*e->args[1], w)) return e;
      const int v = prepared_var(*e->args[1]);
      const char* helper = e->binary_op == ir::BinaryOp::Div ? "mslport_udiv" : "mslport_umod";
      ctx.prelude.require(helper);
      std::vector<ir::ExprPtr> args;
      args.push_back(std::move(e->args[0]));
      args.push_back(ir::make_var_ref(k, v, e->loc));
      return make_call(helper, e->type, std::move(args), e->loc);
    };
    for_each_loop_slot(loop, [&](ir::ExprPtr& slot) { rewrite_expr(slot, rewrite); });
    return decls;
  }

  // Every expression slot of a loop: its init, condition, step and body.
  static void for_each_loop_slot(Stmt& loop, const std::function<void(ir::ExprPtr&)>& f) {
    if (loop.init) for_each_stmt_expr_slot(*loop.init, f);
    if (loop.expr) f(loop.expr);
    if (loop.step) f(loop.step);
    if (loop.body) for_each_stmt_expr_slot(*loop.body, f);
  }

  // Outermost loops first: a divisor is prepared before the outermost loop
  // that leaves it unchanged, so an inner loop does not prepare it again on
  // every outer iteration.
  void block(Stmt& b) {
    for (size_t i = 0; i < b.stmts.size(); ++i) {
      Stmt& s = *b.stmts[i];
      if (is_loop(s)) {
        auto decls = hoist_from(s);
        const size_t n = decls.size();
        b.stmts.insert(b.stmts.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(decls.begin()),
                       std::make_move_iterator(decls.end()));
        i += n;
      }
      nested(*b.stmts[i]);
    }
  }
  void nested(Stmt& s) {
    for (Stmt* c : {s.body.get(), s.else_body.get()}) {
      if (!c) continue;
      if (c->kind == Stmt::Kind::Block) block(*c);
      else nested(*c);
    }
    if (s.kind == Stmt::Kind::Block) block(s);
  }
};

}  // namespace

void raise_invariant_division(RaiseContext& ctx, ir::Kernel& k) {
  Hoister h{ctx, k};
  h.block(*k.body);
}

}  // namespace mslport::back::opencl
