#include "passes/loop_schedule_points.h"

#include <string>
#include <vector>

#include "passes/uniformity.h"

namespace mslport::passes {
using namespace ir;

namespace {

// No sync, break, continue, return or simdgroup_matrix anywhere in the body
// (loops inside are fine: they are chosen in turn, or stay in the work-item
// loop).
bool schedulable_body(const Stmt& body) {
  if (contains_sync(body)) return false;
  bool ok = true;
  walk_stmts(body, [&](const Stmt& s) {
    if (s.kind == Stmt::Kind::Break || s.kind == Stmt::Kind::Continue || s.kind == Stmt::Kind::Return) ok = false;
    return ok;
  });
  // simdgroup_matrix operations act for the whole SIMD group at once (the
  // backend keeps one copy of each matrix): leave their loops alone.
  walk_stmt_exprs(body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::SimdMatrixOp || e.type.kind == Type::Kind::SimdMatrix) ok = false;
    return ok;
  });
  return ok;
}

const Expr* strip_casts(const Expr* e) {
  while (e->kind == Expr::Kind::Cast) e = e->args[0].get();
  return e;
}

bool is_var(const Expr& e, int var) {
  const Expr* x = strip_casts(&e);
  return x->kind == Expr::Kind::VarRef && x->index == var;
}

bool writes_any(const Stmt& body, const Expr& e) {
  std::vector<int> vars;
  walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::VarRef) vars.push_back(x.index);
    return true;
  });
  bool found = false;
  walk_stmt_exprs(body, [&](const Expr& x) {
    int w = written_variable(x);
    for (int v : vars) found = found || w == v;
    return !found;
  });
  walk_stmts(body, [&](const Stmt& x) {
    for (int v : vars) found = found || (x.kind == Stmt::Kind::Decl && x.var == v);
    return !found;
  });
  return found;
}

// A stride that is never zero: a positive literal, or a size builtin.
bool positive_stride(const Kernel& k, const Expr& e) {
  const Expr* x = strip_casts(&e);
  if (x->kind == Expr::Kind::IntLit) return x->int_value > 0 && x->int_value < (1 << 20);
  if (x->kind == Expr::Kind::Swizzle) x = strip_casts(x->args[0].get());
  if (x->kind != Expr::Kind::ParamRef || k.params[x->index].kind != Param::Kind::Builtin) return false;
  switch (k.params[x->index].builtin) {
    case BuiltinId::ThreadsPerThreadgroup: case BuiltinId::ThreadsPerGrid: case BuiltinId::GridSize:
    case BuiltinId::ThreadgroupsPerGrid: case BuiltinId::DispatchThreadsPerThreadgroup:
    case BuiltinId::ThreadsPerSimdgroup: case BuiltinId::SimdgroupsPerThreadgroup:
      return true;
    default: return false;
  }
}

// An exclusive upper bound, the same for every thread, of a strided loop's
// per-thread start: 32 for the SIMD lane, the threadgroup's x size for
// thread_position_in_threadgroup(.x), its thread count for
// thread_index_in_threadgroup; null for anything else. The sizes are calls
// the OpenMP printer knows (this pass runs for that backend only).
ExprPtr start_bound(const Kernel& k, const Expr& start, SourceLoc loc) {
  const Type u32 = Type::scalar_of(ScalarKind::UInt);
  const Expr* x = strip_casts(&start);
  bool lane_x = true;
  if (x->kind == Expr::Kind::Swizzle) {
    lane_x = x->components.size() == 1 && x->components[0] == 0;
    x = strip_casts(x->args[0].get());
  }
  if (x->kind != Expr::Kind::ParamRef || k.params[x->index].kind != Param::Kind::Builtin) return nullptr;
  auto size_call = [&](const char* name) {
    auto c = std::make_unique<Expr>();
    c->kind = Expr::Kind::Call;
    c->type = u32;
    c->spelling = name;
    c->loc = loc;
    return c;
  };
  switch (k.params[x->index].builtin) {
    case BuiltinId::ThreadIndexInSimdgroup: return make_int(u32, 32, loc);
    case BuiltinId::ThreadPositionInThreadgroup:
      return lane_x ? size_call(kThreadgroupSizeX) : nullptr;
    case BuiltinId::ThreadIndexInThreadgroup: return size_call(kThreadgroupThreads);
    default: return nullptr;
  }
}

struct Scheduler {
  Kernel& k;
  UniformityInfo info;
  int inserted = 0;
  int rewritten = 0;

  bool uniform(const Expr& e) const { return info.expr(k, e) == Uniformity::Threadgroup; }

  // `for (uint v = S; v < N; v += C) B` with S per-thread, N and C uniform
  // (and not written by B), C never zero, v not written by B.
  bool thread_strided(const Stmt& s) const {
    if (s.kind != Stmt::Kind::For || !s.init || s.init->kind != Stmt::Kind::Decl || !s.init->expr || !s.expr ||
        !s.step)
      return false;
    int v = s.init->var;
    const Type& t = k.vars[v].type;
    if (!t.is_scalar() || t.scalar != ScalarKind::UInt) return false;
    const Expr& c = *s.expr;
    if (c.kind != Expr::Kind::Binary || c.binary_op != BinaryOp::Lt || !is_var(*c.args[0], v) ||
        c.args[0]->type.scalar != ScalarKind::UInt || c.args[1]->type.scalar != ScalarKind::UInt ||
        !c.args[1]->type.is_scalar() || !uniform(*c.args[1]) || writes_any(*s.body, *c.args[1]))
      return false;
    const Expr& st = *s.step;
    if (st.kind != Expr::Kind::Assign || !st.assign_op || *st.assign_op != BinaryOp::Add || !is_var(*st.args[0], v))
      return false;
    const Expr& inc = *st.args[1];
    if (!inc.type.is_scalar() || !uniform(inc) || !positive_stride(k, inc) || writes_any(*s.body, inc)) return false;
    return !writes_any(*s.body, *c.args[0]) && schedulable_body(*s.body);
  }

  // for (uint v = S; v < N; v += C) B   =>
  //   uint start = S;
  //   for (uint it = 0; it < (N == 0 ? 0 : (N - 1) / C + 1); it += 1) {
  //     uint v = start + it * C;  if (v < N) B }
  // Same iterations in the same order for every thread (while S + k*C does
  // not wrap around 2^32, where the original loop would misbehave too); the
  // trip count is now uniform, so the loop can be turned inside out. The
  // result is written into `out` (the start declaration, then the loop).
  void rewrite_strided(StmtPtr& loop, std::vector<StmtPtr>& out) {
    Stmt& s = *loop;
    SourceLoc loc = s.loc;
    const Type u32 = Type::scalar_of(ScalarKind::UInt);
    int v = s.init->var;
    int start = add_var(k, "mslport_start" + std::to_string(rewritten), u32, loc, true);
    int it = add_var(k, "mslport_iter" + std::to_string(rewritten), u32, loc);
    ++rewritten;
    ExprPtr bound = start_bound(k, *s.init->expr, loc);
    out.push_back(make_decl(start, std::move(s.init->expr), loc));
    ExprPtr n = std::move(s.expr->args[1]);
    ExprPtr c = std::move(s.step->args[1]);
    if (!(c->type == u32)) {
      auto cast = std::make_unique<Expr>();
      cast->kind = Expr::Kind::Cast;
      cast->type = u32;
      cast->loc = loc;
      cast->args.push_back(std::move(c));
      c = std::move(cast);
    }
    ExprPtr trips = std::make_unique<Expr>();
    trips->kind = Expr::Kind::Conditional;
    trips->type = u32;
    trips->loc = loc;
    trips->args.push_back(make_binary(BinaryOp::Eq, Type::scalar_of(ScalarKind::Bool), n->clone(), make_int(u32, 0, loc), loc));
    trips->args.push_back(make_int(u32, 0, loc));
    trips->args.push_back(make_binary(
        BinaryOp::Add, u32,
        make_binary(BinaryOp::Div, u32, make_binary(BinaryOp::Sub, u32, n->clone(), make_int(u32, 1, loc), loc),
                    c->clone(), loc),
        make_int(u32, 1, loc), loc));
    std::vector<StmtPtr> body;
    body.push_back(make_decl(v, make_binary(BinaryOp::Add, u32, make_var_ref(k, start, loc),
                                            make_binary(BinaryOp::Mul, u32, make_var_ref(k, it, loc), c->clone(), loc),
                                            loc),
                             loc));
    // Every start is below `bound`, so when it * C + bound <= N (in 64 bits:
    // no wrap) every thread's v is below N: all threads run B in this
    // iteration, and the backend can drop the test (a masked loop otherwise).
    ExprPtr all_true_when;
    if (bound) {
      const Type u64 = Type::scalar_of(ScalarKind::ULong);
      auto widen = [&](ExprPtr e) {
        auto c = std::make_unique<Expr>();
        c->kind = Expr::Kind::Cast;
        c->type = u64;
        c->loc = loc;
        c->args.push_back(std::move(e));
        return c;
      };
      all_true_when = make_binary(
          BinaryOp::Le, Type::scalar_of(ScalarKind::Bool),
          make_binary(BinaryOp::Add, u64,
                      make_binary(BinaryOp::Mul, u64, widen(make_var_ref(k, it, loc)), widen(c->clone()), loc),
                      widen(std::move(bound)), loc),
          widen(n->clone()), loc);
    }
    body.push_back(make_if(make_binary(BinaryOp::Lt, Type::scalar_of(ScalarKind::Bool), make_var_ref(k, v, loc),
                                       std::move(n), loc),
                           std::move(s.body), nullptr, loc));
    body.back()->all_true_when = std::move(all_true_when);
    s.init = make_decl(it, make_int(u32, 0, loc), loc);
    s.expr = make_binary(BinaryOp::Lt, Type::scalar_of(ScalarKind::Bool), make_var_ref(k, it, loc), std::move(trips),
                         loc);
    ExprPtr step = make_assign(make_var_ref(k, it, loc), make_int(u32, 1, loc), loc);
    step->assign_op = BinaryOp::Add;
    s.step = std::move(step);
    s.body = make_block(std::move(body), loc);
    out.push_back(std::move(loop));
  }

  void rewrite_block(Stmt& b, bool under_memory_condition) {
    std::vector<StmtPtr> out;
    for (auto& c : b.stmts) {
      if (!under_memory_condition && thread_strided(*c)) {
        auto it = info.loop_level.find(c.get());
        Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
        if (u == Uniformity::Thread || u == Uniformity::Simdgroup) {
          rewrite_strided(c, out);
          rewrite_block(*out.back()->body, under_memory_condition);  // loops nested in it
          continue;
        }
      }
      if (c->kind == Stmt::Kind::Block) rewrite_block(*c, under_memory_condition);
      if (c->kind == Stmt::Kind::For) rewrite_block(*c->body, under_memory_condition);
      if (c->kind == Stmt::Kind::If) {
        bool m = under_memory_condition || info.expr(k, *c->expr) == Uniformity::Unknown;
        rewrite_block(*c->body, m);
        if (c->else_body) rewrite_block(*c->else_body, m);
      }
      out.push_back(std::move(c));
    }
    b.stmts = std::move(out);
  }

  bool literal_bound(const Stmt& s) const {
    if (!s.expr || s.expr->kind != Expr::Kind::Binary || s.expr->args.size() != 2) return false;
    for (auto& a : s.expr->args) {
      const Expr* x = strip_casts(a.get());
      if (x->kind == Expr::Kind::IntLit || x->kind == Expr::Kind::GlobalConstRef) return true;
    }
    return false;
  }

  bool chosen(const Stmt& s) const {
    if (s.kind != Stmt::Kind::For || !schedulable_body(*s.body) || literal_bound(s)) return false;
    if (s.step && contains_collective(*s.step)) return false;
    auto it = info.loop_level.find(&s);
    Uniformity u = it == info.loop_level.end() ? Uniformity::Threadgroup : it->second;
    // Only where every thread reaches the loop: under a per-thread condition
    // (`if (tid == 0) { for (...) }`) the loop would run once per iteration
    // over all the threads with one of them active (moe_gate's top-k: 2.4x
    // slower when these were chosen).
    return u == Uniformity::Threadgroup;
  }

  // `if (K > 3) moe += w[3] * expert3[tid]`: a threadgroup-uniform
  // condition every thread reaches, guarding per-thread buffer accesses. In
  // a work-item loop the compiler turns the condition into a mask on the
  // loads (vectorised code runs both sides), and masked loads of buffers
  // the condition says not to touch are slow: AVX-512 suppresses the faults
  // of a 64-byte buffer read 8 MB past its end in microcode (measured:
  // moe_combine_residual with 8 of 16 experts bound, 1.4 GB/s). A schedule
  // point in each branch makes the If run once per threadgroup instead,
  // with work-item loops inside.
  bool uniform_branch(const Stmt& s) const {
    if (s.kind != Stmt::Kind::If || !schedulable_body(*s.body) || (s.else_body && !schedulable_body(*s.else_body)))
      return false;
    if (info.control_of(&s) != Uniformity::Threadgroup || info.expr(k, *s.expr) != Uniformity::Threadgroup)
      return false;
    bool per_thread_access = false;
    auto note = [&](const Expr& e) {
      walk_exprs(e, [&](const Expr& x) {
        if (x.kind == Expr::Kind::Index && x.args[0]->type.kind == Type::Kind::Pointer &&
            info.expr(k, *x.args[1]) != Uniformity::Threadgroup)
          per_thread_access = true;
        return !per_thread_access;
      });
      return !per_thread_access;
    };
    walk_stmt_exprs(*s.body, note);
    if (s.else_body) walk_stmt_exprs(*s.else_body, note);
    return per_thread_access;
  }

  void insert_point(Stmt& body, SourceLoc loc) {
    auto b = std::make_unique<Stmt>();
    b->kind = Stmt::Kind::Barrier;
    b->loc = loc;
    b->lockstep = true;
    body.stmts.insert(body.stmts.begin(), std::move(b));
    ++inserted;
  }

  void visit(Stmt& s, bool under_memory_condition) {
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& c : s.stmts) visit(*c, under_memory_condition);
        break;
      case Stmt::Kind::If: {
        if (!under_memory_condition && uniform_branch(s)) {
          insert_point(*s.body, s.loc);
          if (s.else_body && !s.else_body->stmts.empty()) insert_point(*s.else_body, s.loc);
        }
        bool m = under_memory_condition || info.expr(k, *s.expr) == Uniformity::Unknown;
        visit(*s.body, m);
        if (s.else_body) visit(*s.else_body, m);
        break;
      }
      case Stmt::Kind::For:
        if (!under_memory_condition && chosen(s)) insert_point(*s.body, s.loc);
        // Loops nested in a loop are never chosen: turning a nest inside out
        // down to the innermost loop was measured slower (a per-thread dot
        // product `for (d) dot += h[d] * w_row[d]` vectorises better along d
        // than across threads whose rows are far apart: moe_gate 14 ms ->
        // 1.27 s).
        break;
      default: break;
    }
  }
};

}  // namespace

int insert_loop_schedule_points(Kernel& k) {
  if (!k.body) return 0;
  Scheduler s{k, analyze_uniformity(k)};
  s.rewrite_block(*k.body, false);
  if (s.rewritten) s.info = analyze_uniformity(k);  // the new variables
  s.visit(*k.body, false);
  return s.inserted;
}

}  // namespace mslport::passes
